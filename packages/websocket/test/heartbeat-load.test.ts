// The heartbeat's timers load on demand once the socket is open. Should that module fail to load,
// the transport stays up and works, and a diagnostic says the connection goes unwatched.
import { once } from "node:events";
import WebSocket, { WebSocketServer } from "ws";
import { afterEach, expect, it, vi } from "vitest";
import type { TransportDiagnostic } from "@codex-rpc/core";
import type { WebSocketConstructor } from "../src/index.js";

vi.mock("../src/heartbeat-probe.js", () => {
  throw new Error("chunk failed to load");
});

const { openWebSocketTransport } = await import("../src/websocket-transport.js");

const Ws = WebSocket as unknown as WebSocketConstructor;
let server: WebSocketServer | undefined;
afterEach(async () => {
  const closing = server;
  server = undefined;
  if (closing) await new Promise((resolve) => (closing.clients.forEach((client) => client.terminate()), closing.close(resolve)));
});

it("a heartbeat that cannot be loaded: the transport still opens and carries messages, with an `other` diagnostic", async () => {
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await once(server, "listening");
  server.on("connection", (socket) => socket.on("message", (data) => socket.send(String(data))));
  const url = `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
  const transport = await openWebSocketTransport({ url, WebSocket: Ws, heartbeat: { intervalMs: 50, timeoutMs: 50 } });
  const diagnostics: TransportDiagnostic[] = [];
  transport.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
  const echoed = new Promise((resolve) => transport.messages$.subscribe(resolve));
  await transport.send({ id: 1, method: "echo" });
  expect(await echoed).toEqual({ id: 1, method: "echo" });
  await vi.waitFor(() =>
    expect(diagnostics).toEqual([expect.objectContaining({ kind: "other", message: expect.stringContaining("the heartbeat could not be loaded") })]),
  );
  // No heartbeat: a server silent for longer than interval + timeout does not close it.
  await new Promise((resolve) => setTimeout(resolve, 250));
  let closed = false;
  void transport.closed.then(() => (closed = true));
  await Promise.resolve();
  expect(closed).toBe(false);
  await transport.close();
});
