// The secret redactor loads on demand: only with a token or subprotocols, and before the socket is
// made. Should it fail to load, openWebSocketTransport rejects with nothing opened (never a
// connection whose frames would go unredacted).
import { describe, expect, it, vi } from "vitest";
import type { WebSocketConstructor } from "../src/browser.js";

vi.mock("../src/secret-redactor.js", () => {
  throw new Error("chunk failed to load");
});

const { openWebSocketTransport } = await import("../src/websocket-transport.js");

/** A constructor that counts the sockets made and never opens. */
function counting(): { made: () => number; Socket: WebSocketConstructor } {
  let made = 0;
  const Socket = class {
    constructor() {
      made++;
      throw new Error("no socket in this test");
    }
  } as unknown as WebSocketConstructor;
  return { made: () => made, Socket };
}

describe("when the secret redactor cannot be loaded", () => {
  it("a transport with a token or subprotocols is not opened: the call rejects before any socket is made", async () => {
    for (const options of [{ token: "a-capability-token-0123456789" }, { protocols: ["codex-rpc.v1", "codex-rpc.token.Zr9Kp2WqX7mN4vB8cL1sT6yH3jD5fG0a"] }]) {
      const { made, Socket } = counting();
      const error = await openWebSocketTransport({ url: "ws://127.0.0.1:1", WebSocket: Socket, ...options }).catch((caught: unknown) => caught);
      // The import's own error (vitest wraps the mock factory's throw in one of its own).
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toHaveProperty("code", "CONNECT_FAILED");
      expect(made()).toBe(0);
    }
  });

  it("a transport with neither never loads it", async () => {
    const { made, Socket } = counting();
    const error = await openWebSocketTransport({ url: "ws://127.0.0.1:1", WebSocket: Socket }).catch((caught: unknown) => caught);
    expect(made()).toBe(1);
    expect(error).toMatchObject({ code: "CONNECT_FAILED" });
  });
});
