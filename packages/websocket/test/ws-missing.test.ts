// On Node 20 (no global WebSocket) and for Unix sockets the Node entry loads the `ws` package, an
// optional peer dependency. Without it the call rejects with a typed CONNECT_FAILED naming the fix
// (a review found a plain TypeError with no `code`), its URL redacted, nothing opened.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("ws", () => {
  throw new Error("Cannot find package 'ws'");
});

const { openWebSocketTransport, WebSocketConnectError } = await import("../src/node.js");

describe("without the ws package", () => {
  const global = globalThis as { WebSocket?: unknown };
  const saved = global.WebSocket;
  beforeEach(() => {
    // Node 20 has no global WebSocket; Node 22 has one, taken away here to be Node 20.
    delete global.WebSocket;
  });
  afterEach(() => {
    if (saved !== undefined) global.WebSocket = saved;
  });

  it("a URL on Node 20 and a Unix socket reject with CONNECT_FAILED saying to install ws, the URL's secrets redacted", async () => {
    for (const options of [{ url: "ws://user:hunter2hunter2@127.0.0.1:1/?token=abcdefabcdef" }, { socketPath: "/tmp/codex.sock" }]) {
      const error = await openWebSocketTransport(options).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WebSocketConnectError);
      expect(error).toMatchObject({ code: "CONNECT_FAILED", message: expect.stringContaining("npm install ws") });
      expect(JSON.stringify({ url: (error as { url: string }).url, message: (error as Error).message })).not.toMatch(/hunter2|abcdefabcdef/);
    }
  });

  it("a WebSocket constructor given by the caller needs no ws", async () => {
    const Socket = class {
      constructor() {
        throw new Error("no socket in this test");
      }
    };
    const error = await openWebSocketTransport({ url: "ws://127.0.0.1:1", WebSocket: Socket as never }).catch((caught: unknown) => caught);
    expect((error as Error).message).not.toContain("npm install ws");
  });
});
