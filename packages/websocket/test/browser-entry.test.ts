// The browser entry refuses a token up front: a browser's WebSocket cannot send the header, and
// silently connecting without it would only fail later with a less useful error.
import { expect, it } from "vitest";
import { CodexRpcError } from "@codex-rpc/core";
import { openWebSocketTransport } from "../src/browser.js";

it("rejects `token` with UNSUPPORTED before opening anything", async () => {
  let constructed = 0;
  const globals = globalThis as { WebSocket?: unknown };
  const previous = globals.WebSocket;
  globals.WebSocket = class {
    constructor() {
      constructed++;
    }
  };
  try {
    const error = await openWebSocketTransport({ url: "ws://127.0.0.1:1", token: "cap-token-abcdef0123456789" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodexRpcError);
    expect(error).toMatchObject({ code: "UNSUPPORTED" });
    expect((error as Error).message).toContain("relay");
    expect((error as Error).message).not.toContain("cap-token-abcdef0123456789");
    expect(constructed).toBe(0);
  } finally {
    globals.WebSocket = previous;
  }
});
