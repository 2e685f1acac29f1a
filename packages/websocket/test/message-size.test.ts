// One message-size rule on every runtime, the stdio one: a text frame over `maxMessageBytes` is
// dropped with an `oversize-line` diagnostic giving its size, and the connection stays usable.
// Checked under ws (Node 20) in this process and under Node 22's global WebSocket in a child.
import WebSocket from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { CodexClient, type TransportDiagnostic } from "@codex-rpc/core";
import { DEFAULT_MAX_LINE_BYTES } from "@codex-rpc/core/transport";
import { openWebSocketTransport, type WebSocketConstructor } from "../src/index.js";
import { utf8BytesOver, utf8Length, wsMaxPayloadFor } from "../src/message-size.js";
import { answerRequests, frameOfBytes, runScript, startFakeServer, type FakeServer } from "./support/fake-websocket-server.js";

const Ws = WebSocket as unknown as WebSocketConstructor;
const MiB = 1024 * 1024;
const CAP = 1000;
const servers: FakeServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** Answers requests; `{"method":"send","params":{"frames":[…]}}` makes it send those text frames, then `{"method":"after"}`. */
async function framingServer(): Promise<FakeServer> {
  const server = await startFakeServer((socket) => {
    answerRequests(socket);
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { method: string; params?: { frames: Array<{ bytes: number; fill?: string }> } };
      if (message.method !== "send") return;
      for (const frame of message.params!.frames) socket.send(frameOfBytes(frame.bytes, frame.fill));
      socket.send(JSON.stringify({ method: "after" }));
    });
  });
  servers.push(server);
  return server;
}

describe("the byte count", () => {
  it("counts UTF-8 bytes without encoding, as TextEncoder does", () => {
    const encoder = new TextEncoder();
    for (const text of ["", "plain ascii", "é", "€uro", "😀", "a😀b€cé", "\u07ff\u0800\uffff", "lone \ud800 surrogate", "\udc00 low first", "x".repeat(5000)]) {
      expect(utf8Length(text), JSON.stringify(text)).toBe(encoder.encode(text).length);
    }
  });

  it("skips counting when the text is short enough to be under the cap whatever it holds", () => {
    expect(utf8BytesOver("€".repeat(333), 1000)).toBeUndefined(); // 999 bytes, not counted
    expect(utf8BytesOver("€".repeat(334), 1000)).toBe(1002);
    expect(utf8BytesOver("x".repeat(1000), 1000)).toBeUndefined();
    expect(utf8BytesOver("x".repeat(1001), 1000)).toBe(1001);
  });

  it("gives ws room above the cap: the cap again, at least 16 MiB", () => {
    expect(wsMaxPayloadFor(DEFAULT_MAX_LINE_BYTES)).toBe(256 * MiB);
    expect(wsMaxPayloadFor(CAP)).toBe(CAP + 16 * MiB);
    expect(wsMaxPayloadFor(Infinity)).toBe(0); // ws: no limit
  });

  it("rejects a cap that is not a positive number before opening anything", async () => {
    for (const maxMessageBytes of [0, -1, Number.NaN]) {
      await expect(openWebSocketTransport({ url: "ws://127.0.0.1:1", WebSocket: Ws, maxMessageBytes })).rejects.toThrow(RangeError);
    }
  });
});

describe("under ws (Node 20)", () => {
  it("drops a frame over the cap (ASCII or not) with its size, keeps one at the cap, and stays usable", async () => {
    const server = await framingServer();
    const transport = await openWebSocketTransport({ url: server.url, WebSocket: Ws, maxMessageBytes: CAP });
    const diagnostics: TransportDiagnostic[] = [];
    transport.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    const client = await CodexClient.connect(transport);
    const seen: string[] = [];
    client.unknownNotifications().subscribe((notification) => seen.push(`${notification.method} ${JSON.stringify(notification).length}`));

    const after = new Promise<void>((resolve) => client.unknownNotifications().subscribe((n) => n.method === "after" && resolve()));
    await transport.send({
      method: "send",
      params: { frames: [{ bytes: CAP }, { bytes: CAP + 1 }, { bytes: CAP, fill: "€" }, { bytes: CAP + 2, fill: "€" }, { bytes: 20_000, fill: "é" }] },
    });
    await after;
    expect(diagnostics).toEqual([
      {
        kind: "oversize-line",
        bytes: CAP + 1,
        message: `dropped a WebSocket frame of ${CAP + 1} bytes: longer than the limit of ${CAP} bytes (maxMessageBytes)`,
      },
      expect.objectContaining({ kind: "oversize-line", bytes: CAP + 2 }),
      expect.objectContaining({ kind: "oversize-line", bytes: 20_000 }),
    ]);
    expect(seen.filter((line) => line.startsWith("big"))).toHaveLength(2);
    await expect(client.request("thread/list", {})).resolves.toBeDefined();
    await client.close();
  });

  it("keeps a 110 MB frame under the default cap (ws alone would close the connection over 100 MiB)", async () => {
    const server = await framingServer();
    const transport = await openWebSocketTransport({ url: server.url, WebSocket: Ws, heartbeat: false });
    const diagnostics: TransportDiagnostic[] = [];
    transport.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    const received: Array<string | undefined> = [];
    const after = new Promise<void>((resolve) =>
      transport.messages$.subscribe((message) => {
        const { method } = message as { method?: string };
        received.push(method);
        if (method === "after") resolve();
      }),
    );
    await transport.send({ method: "send", params: { frames: [{ bytes: 110_000_000 }] } });
    await after;
    expect(diagnostics).toEqual([]);
    expect(received).toEqual(["big", "after"]);
    await transport.close();
  });

  it("a frame beyond the cap plus ws's margin: ws closes the connection (1009) and the transport says why", async () => {
    const server = await framingServer();
    const transport = await openWebSocketTransport({ url: server.url, WebSocket: Ws, maxMessageBytes: CAP });
    const diagnostics: TransportDiagnostic[] = [];
    transport.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    transport.messages$.subscribe();
    await transport.send({ method: "send", params: { frames: [{ bytes: wsMaxPayloadFor(CAP) }] } });
    await transport.send({ method: "send", params: { frames: [{ bytes: wsMaxPayloadFor(CAP) + 1 }] } });
    const info = await transport.closed;
    expect(diagnostics).toEqual([expect.objectContaining({ kind: "oversize-line", bytes: wsMaxPayloadFor(CAP) })]); // the largest ws holds: dropped
    expect(info.reason).toBe("error");
    expect((info.error as Error).message).toContain(`the server sent a message over ${CAP + 16 * MiB} bytes (maxMessageBytes plus ws's margin)`);
    expect((info.error as Error).message).toContain("Max payload size exceeded");
  });
});

// What each runtime's own WebSocket says for a message over its own ceiling (measured).
const CEILINGS = {
  node22: "Payload size exceeds maximum allowed size", // undici: 128 MiB
  deno: "Frame too large", // 64 MiB
  bun: "Message too big", // 128 MiB
};

describe.each(["node22", "deno", "bun"] as const)("under the global WebSocket of %s", (runtime) => {
  const script = `
    import { openWebSocketTransport } from "@codex-rpc/websocket";
    const [url, cap] = process.argv.slice(-2);
    const transport = await openWebSocketTransport({ url, maxMessageBytes: Number(cap), heartbeat: false });
    const out = (value) => console.log(JSON.stringify(value));
    transport.diagnostics$.subscribe((d) => out({ diagnostic: d }));
    let next = () => {};
    transport.messages$.subscribe((m) => { out({ message: m.method ?? m.id, size: JSON.stringify(m).length }); next(m); });
    const wait = (test) => new Promise((resolve) => (next = (m) => test(m) && resolve()));
    const send = (frames) => { const done = wait((m) => m.method === "after"); transport.send({ method: "send", params: { frames } }); return done; };
    await send([{ bytes: Number(cap) }, { bytes: Number(cap) + 1 }, { bytes: Number(cap), fill: "€" }, { bytes: Number(cap) + 2, fill: "€" }, { bytes: 20000, fill: "😀" }]);
    const answered = wait((m) => m.id === 7);
    transport.send({ id: 7, method: "thread/list", params: {} });
    await answered;
    out({ usable: true });
    // Over the runtime's own ceiling: it fails the connection itself.
    transport.send({ method: "send", params: { frames: [{ bytes: 129 * 1024 * 1024 }] } });
    const info = await transport.closed;
    out({ close: { reason: info.reason, error: info.error?.message } });
  `;

  it("drops a frame over the cap with its size, stays usable, and types the close for a frame over the runtime's ceiling", async () => {
    const server = await framingServer();
    const run = await runScript(runtime, script, { timeoutMs: 60_000, args: [server.url, String(CAP)] });
    expect(run.exitCode, run.stderr).toBe(0);
    const diagnostics = run.results.flatMap((result) => (result.diagnostic ? [result.diagnostic] : []));
    expect(diagnostics).toEqual([
      expect.objectContaining({ kind: "oversize-line", bytes: CAP + 1 }),
      expect.objectContaining({ kind: "oversize-line", bytes: CAP + 2 }),
      expect.objectContaining({ kind: "oversize-line", bytes: 20_000 }),
    ]);
    expect(run.results.filter((result) => result.message === "big")).toHaveLength(2);
    expect(run.results).toContainEqual({ usable: true });
    const close = run.results.find((result) => result.close)?.close as { reason: string; error: string };
    expect(close.reason).toBe("error");
    expect(close.error).toContain("over this runtime's WebSocket limit");
    expect(close.error).toContain(CEILINGS[runtime]);
  });
});
