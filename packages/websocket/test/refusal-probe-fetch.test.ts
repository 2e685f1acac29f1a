// A browser's fetch throws "Illegal invocation" unless called on the global object (seen in
// Chromium): the probe that tells a relay's refused token from a refused origin must call it bound,
// or a page only ever hears "WebSocket connection failed".
import { afterEach, expect, it, vi } from "vitest";
import { openWebSocketTransport } from "../src/index.js";
import { relayProtocols } from "../src/relay-protocol.js";
import type { WebSocketLike } from "../src/websocket-like.js";

/** A browser's refused upgrade: an error event with nothing in it, then close 1006. */
class RefusedSocket implements WebSocketLike {
  readyState = 0;
  readonly #listeners = new Map<string, ((event: never) => void)[]>();
  constructor(_url: string, _protocols?: unknown) {
    setTimeout(() => {
      this.readyState = 3;
      for (const listener of this.#listeners.get("error") ?? []) listener({} as never);
      for (const listener of this.#listeners.get("close") ?? []) listener({ code: 1006, reason: "" } as never);
    }, 0);
  }
  send(): void {}
  close(): void {}
  addEventListener(type: string, listener: (event: never) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

it("asks the relay's discovery document with fetch called on the global object", async () => {
  const asked: string[] = [];
  vi.stubGlobal("fetch", function (this: unknown, url: string) {
    if (this !== globalThis) throw new TypeError("Illegal invocation");
    asked.push(url);
    return Promise.resolve({ ok: true, status: 200 });
  });
  const error = await openWebSocketTransport({
    url: "ws://127.0.0.1:4510/",
    protocols: relayProtocols("t".repeat(43)),
    WebSocket: RefusedSocket as never,
  }).catch((thrown: unknown) => thrown);
  expect(asked).toEqual(["http://127.0.0.1:4510/.well-known/codex-rpc-relay"]);
  expect(error).toMatchObject({ code: "UNAUTHORIZED" });
  expect((error as Error).message).toMatch(/most likely refused the token/);
});
