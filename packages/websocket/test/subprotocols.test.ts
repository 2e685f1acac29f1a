// The `protocols` option is checked before anything opens (a browser's WebSocket would throw a
// SyntaxError quoting it), and never appears in an error: a relay token travels in it.
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "@codex-rpc/core";
import { openRelayTransport, openWebSocketTransport, relayProtocols, type WebSocketConstructor } from "../src/browser.js";
import { checkProtocols, redactProtocols } from "../src/subprotocols.js";

const SECRET = "relay-token-Zx9_-Q3m8WkP0aLs2Vd7";

/** A constructor that records its arguments and never opens. */
function recorder(): { calls: unknown[][]; Socket: WebSocketConstructor } {
  const calls: unknown[][] = [];
  const Socket = class {
    constructor(...args: unknown[]) {
      calls.push(args);
      throw new Error(`runtime refused ${String(args[1])}`);
    }
  } as unknown as WebSocketConstructor;
  return { calls, Socket };
}

describe("checkProtocols", () => {
  it("takes a string or a list of RFC 6455 tokens", () => {
    expect(checkProtocols(undefined)).toBeUndefined();
    expect(checkProtocols("codex-rpc.v1")).toEqual(["codex-rpc.v1"]);
    expect(checkProtocols(["a", "b!#$%&'*+-.^_`|~9"])).toEqual(["a", "b!#$%&'*+-.^_`|~9"]);
  });

  for (const [name, value] of [
    ["empty", [""]],
    ["a space", [`x ${SECRET}`]],
    ["a comma", [`x,${SECRET}`]],
    ["non-ASCII", [`é${SECRET}`]],
    ["a separator", [`${SECRET}/`]],
    ["not a string", [42]],
    ["a duplicate", [SECRET, SECRET]],
  ] as const) {
    it(`refuses ${name} with InvalidOptionError, without the value`, () => {
      let error: unknown;
      try {
        checkProtocols(value as unknown as string[]);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect(error).toMatchObject({ code: "INVALID_OPTION", option: "protocols" });
      expect(String((error as Error).message)).not.toContain(SECRET);
    });
  }

  it("redacts the subprotocols out of a runtime's message", () => {
    expect(redactProtocols(`bad ${SECRET} here`, [SECRET])).toBe("bad [REDACTED] here");
    // The relay's own subprotocol is public: a message naming it keeps it.
    expect(redactProtocols(`codex-rpc.v1 and ${SECRET}`, ["codex-rpc.v1", SECRET])).toBe("codex-rpc.v1 and [REDACTED]");
  });
});

describe("openWebSocketTransport with protocols", () => {
  it("checks them before constructing anything", async () => {
    const { calls, Socket } = recorder();
    const error = await openWebSocketTransport({ url: "ws://127.0.0.1:1", protocols: ["a b"], WebSocket: Socket }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(calls).toHaveLength(0);
  });

  it("passes them as the standard second argument, and keeps them out of the error", async () => {
    const { calls, Socket } = recorder();
    const error = await openWebSocketTransport({ url: "ws://127.0.0.1:1", protocols: relayProtocols(SECRET), WebSocket: Socket }).catch((e: unknown) => e);
    expect(calls).toEqual([["ws://127.0.0.1:1", ["codex-rpc.v1", `codex-rpc.token.${SECRET}`]]]);
    expect(error).toMatchObject({ code: "CONNECT_FAILED" });
    expect((error as Error).message).not.toContain(SECRET);
  });
});

describe("relayProtocols and openRelayTransport", () => {
  it("offer codex-rpc.v1 and the token subprotocol", async () => {
    expect(relayProtocols("abc")).toEqual(["codex-rpc.v1", "codex-rpc.token.abc"]);
    const { calls, Socket } = recorder();
    await openRelayTransport({ url: "ws://127.0.0.1:1", token: SECRET, WebSocket: Socket }).catch(() => undefined);
    expect(calls[0]?.[1]).toEqual(["codex-rpc.v1", `codex-rpc.token.${SECRET}`]);
  });

  it("refuse a token that cannot be a subprotocol, naming `token` and not its value", () => {
    expect(() => relayProtocols(`${SECRET} x`)).toThrow(InvalidOptionError);
    expect(() => relayProtocols("")).toThrow(/token/);
    try {
      relayProtocols(`${SECRET}\n`);
    } catch (error) {
      expect((error as Error).message).not.toContain(SECRET);
    }
  });
});
