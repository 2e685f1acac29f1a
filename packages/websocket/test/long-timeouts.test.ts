// Timeouts a user configures go through core's startTimer: past 2^31−1 ms a plain setTimeout
// fires after about 1 ms, so `Infinity` or 30 days would fail at once. Here `Infinity` means none
// and 30 days means 30 days, under ws (Node 20) and Node 22's global WebSocket.
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import WebSocket from "ws";
import { afterEach, expect, it, vi } from "vitest";
import { openWebSocketTransport, WebSocketTransport, type WebSocketConstructor, type WebSocketLike } from "../src/index.js";
import { goDeaf, runScript, startFakeServer, type FakeServer } from "./support/fake-websocket-server.js";

const Ws = WebSocket as unknown as WebSocketConstructor;
const DAY = 24 * 60 * 60 * 1000;
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A TCP server that accepts and never answers the WebSocket upgrade. */
async function silentTcpServer(): Promise<string> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => sockets.add(socket));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(() => new Promise((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(resolve))));
  return `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const settledWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise.then(
      () => "settled",
      () => "settled",
    ),
    new Promise((resolve) => setTimeout(() => resolve("pending"), ms)),
  ]);

for (const [name, connectTimeoutMs] of [
  ["Infinity", Infinity],
  ["30 days", 30 * DAY],
] as const) {
  it(`connectTimeoutMs: ${name} does not give up on a slow handshake (ws)`, async () => {
    const url = await silentTcpServer();
    const controller = new AbortController();
    const opening = openWebSocketTransport({ url, WebSocket: Ws, connectTimeoutMs, signal: controller.signal });
    expect(await settledWithin(opening, 300)).toBe("pending");
    controller.abort(new Error("done waiting"));
    await expect(opening).rejects.toMatchObject({ code: "CONNECT_FAILED" });
  });
}

it("closeTimeoutMs: Infinity waits for the close frame instead of dropping the connection at once (ws)", async () => {
  const server: FakeServer = await startFakeServer(goDeaf);
  cleanups.push(() => server.close());
  const transport = await openWebSocketTransport({ url: server.url, WebSocket: Ws, closeTimeoutMs: Infinity, heartbeat: false });
  const closing = transport.close();
  expect(await settledWithin(closing, 300)).toBe("pending");
  for (const client of server.clients) client.terminate(); // the server goes: now close() resolves
  await closing;
  expect(await transport.closed).toMatchObject({ reason: "closed" });
});

it("heartbeat intervals of 30 days: no probe fires early (ws)", async () => {
  const received: string[] = [];
  const server: FakeServer = await startFakeServer((socket) => socket.on("message", (data) => received.push(String(data))));
  cleanups.push(() => server.close());
  const transport = await openWebSocketTransport({ url: server.url, WebSocket: Ws, heartbeat: { intervalMs: 30 * DAY, timeoutMs: 30 * DAY } });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(received).toEqual([]);
  await transport.close();
});

it("with fake timers: a 30-day connect timeout fires after 30 days, not after 2^31 ms", async () => {
  vi.useFakeTimers();
  // A socket that never opens; a ws+unix URL has no /readyz to ask, so no fetch is involved.
  const listeners = new Map<string, Array<(event: unknown) => void>>();
  const socket: WebSocketLike = {
    readyState: 0,
    send: () => {},
    close: () => {},
    addEventListener: (type: string, listener: (event: never) => void) =>
      listeners.set(type, [...(listeners.get(type) ?? []), listener as (event: unknown) => void]),
  };
  const transport = new WebSocketTransport(socket, { url: "ws+unix:///nowhere.sock:/", connectTimeoutMs: 30 * DAY, heartbeat: false });
  let outcome: unknown = "pending";
  transport.opened.catch((error: unknown) => (outcome = error));
  await vi.advanceTimersByTimeAsync(2 ** 31 + 1000);
  expect(outcome).toBe("pending");
  await vi.advanceTimersByTimeAsync(30 * DAY - 2 ** 31);
  expect(outcome).toMatchObject({ code: "CONNECT_FAILED", message: expect.stringContaining("did not open in time") });
});

it("rejects a timeout that is not a number of milliseconds before opening anything", async () => {
  let constructed = 0;
  const Counting = class {
    constructor() {
      constructed++;
    }
  } as unknown as WebSocketConstructor;
  await expect(openWebSocketTransport({ url: "ws://127.0.0.1:1", WebSocket: Counting, connectTimeoutMs: Number.NaN })).rejects.toThrow(RangeError);
  await expect(openWebSocketTransport({ url: "ws://127.0.0.1:1", WebSocket: Counting, closeTimeoutMs: Number.NaN })).rejects.toThrow(RangeError);
  expect(constructed).toBe(0);
});

it("under Node 22's global WebSocket, connectTimeoutMs: Infinity and 30 days do not fail at once", async () => {
  const url = await silentTcpServer();
  const script = `
    import { openWebSocketTransport } from "@codex-rpc/websocket";
    const url = process.argv.at(-1);
    for (const connectTimeoutMs of [Infinity, 30 * 24 * 60 * 60 * 1000]) {
      const controller = new AbortController();
      let state = "pending";
      const opening = openWebSocketTransport({ url, connectTimeoutMs, signal: controller.signal }).catch((e) => (state = e.message));
      await new Promise((resolve) => setTimeout(resolve, 300));
      console.log(JSON.stringify({ connectTimeoutMs: String(connectTimeoutMs), state }));
      controller.abort(new Error("done waiting"));
      await opening;
    }
  `;
  const run = await runScript("node22", script, { timeoutMs: 30_000, args: [url] });
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.results).toEqual([
    { connectTimeoutMs: "Infinity", state: "pending" },
    { connectTimeoutMs: String(30 * DAY), state: "pending" },
  ]);
});
