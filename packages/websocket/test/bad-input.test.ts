// What a WebSocket transport does with a server that misbehaves: every case ends in a typed
// error or a diagnostic, never a hang. The misbehaving servers are `ws` servers and raw TCP.
import { createServer, type Server, type Socket } from "node:net";
import { once } from "node:events";
import WebSocket, { WebSocketServer } from "ws";
import { afterEach, expect, it } from "vitest";
import { CodexClient, ConnectionClosedError, type TransportDiagnostic } from "@codex-rpc/core";
import { openWebSocketTransport, WebSocketConnectError, type WebSocketConstructor } from "../src/index.js";

const Ws = WebSocket as unknown as WebSocketConstructor;
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A `ws` server on a free loopback port that runs `onConnection` for each client. */
async function fakeServer(onConnection: (socket: WebSocket) => void): Promise<string> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await once(server, "listening");
  server.on("connection", onConnection);
  cleanups.push(() => new Promise((resolve) => (server.clients.forEach((client) => client.terminate()), server.close(resolve))));
  return `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A plain TCP server, for handshakes that never become WebSocket. */
async function tcpServer(onSocket: (socket: Socket) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    onSocket(socket);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanups.push(() => new Promise((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(resolve))));
  return `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** Answers `initialize` like codex, then `reply(method)` for other requests (undefined: no answer). */
function answering(socket: WebSocket, reply: (method: string) => unknown = () => ({})): void {
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: number; method: string };
    if (message.id === undefined) return;
    const result =
      message.method === "initialize" ? { userAgent: "fake/0", codexHome: "/tmp", platformFamily: "unix", platformOs: "linux" } : reply(message.method);
    if (result !== undefined) socket.send(JSON.stringify({ id: message.id, result }));
  });
}

it("a URL where nothing listens: CONNECT_FAILED saying nothing answered", async () => {
  const url = await tcpServer(() => {});
  const port = new URL(url).port;
  cleanups.splice(0).forEach((cleanup) => void cleanup()); // close it: now the port refuses
  await new Promise((resolve) => setTimeout(resolve, 50));
  const error = await openWebSocketTransport({ url: `ws://127.0.0.1:${port}`, WebSocket: Ws }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WebSocketConnectError);
  expect(error).toMatchObject({ code: "CONNECT_FAILED" });
  expect((error as Error).message).toMatch(/nothing answered there.*ECONNREFUSED/);
});

it("a server that accepts TCP but never answers the upgrade: CONNECT_FAILED at the connect timeout", async () => {
  const url = await tcpServer(() => {});
  const started = Date.now();
  const error = await openWebSocketTransport({ url, WebSocket: Ws, connectTimeoutMs: 300 }).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: "CONNECT_FAILED" });
  expect((error as Error).message).toContain("did not open in time");
  expect(Date.now() - started).toBeLessThan(5_000);
});

it("a server that hangs up during the opening handshake: CONNECT_FAILED", async () => {
  const url = await tcpServer((socket) => socket.once("data", () => socket.destroy()));
  const error = await openWebSocketTransport({ url, WebSocket: Ws }).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: "CONNECT_FAILED" });
  expect((error as Error).message).toContain("the opening handshake failed");
});

it("a server that closes during the JSON-RPC handshake: connect rejects with ConnectionClosedError naming initialize", async () => {
  const url = await fakeServer((socket) => socket.once("message", () => socket.close(1011, "going away")));
  const transport = await openWebSocketTransport({ url, WebSocket: Ws });
  const error = await CodexClient.connect(transport).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConnectionClosedError);
  expect(error).toMatchObject({ code: "CONNECTION_CLOSED", method: "initialize", close: { reason: "eof", closeCode: 1011, closeReason: "going away" } });
  expect((error as Error).message).toContain("code 1011: going away");
});

it("a frame carrying two messages and a binary frame: each dropped with a diagnostic, the connection still works", async () => {
  const url = await fakeServer((socket) => {
    answering(socket, (method) => {
      if (method === "thread/list") {
        socket.send(`${JSON.stringify({ method: "first" })}\n${JSON.stringify({ method: "second" })}`);
        socket.send(Buffer.from(JSON.stringify({ method: "binary" })), { binary: true });
        socket.send(JSON.stringify({ method: "after" }));
      }
      return { data: [], nextCursor: null };
    });
  });
  const transport = await openWebSocketTransport({ url, WebSocket: Ws });
  const diagnostics: TransportDiagnostic[] = [];
  transport.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
  const client = await CodexClient.connect(transport);
  cleanups.push(() => client.close());
  const unknown: string[] = [];
  client.unknownNotifications().subscribe((notification) => unknown.push(notification.method));

  await expect(client.request("thread/list", {})).resolves.toMatchObject({ data: [] });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(unknown).toEqual(["after"]);
  expect(diagnostics.map((diagnostic) => diagnostic.kind)).toEqual(["invalid-json", "binary-frame"]);
  expect(diagnostics[0]!.excerpt).toContain('{"method":"first"}');
  await expect(client.request("thread/list", {})).resolves.toBeDefined();
});

it("the server dropping an open connection: pending requests reject at once with the close code", async () => {
  let serverSide: WebSocket | undefined;
  const url = await fakeServer((socket) => {
    serverSide = socket;
    answering(socket, () => undefined); // never answers anything but initialize
  });
  const client = await CodexClient.connect(await openWebSocketTransport({ url, WebSocket: Ws }));
  const pending = client.request("thread/list", {}).catch((e: unknown) => e);
  await new Promise((resolve) => setTimeout(resolve, 20));
  serverSide!.terminate();
  const error = await pending;
  expect(error).toMatchObject({ code: "CONNECTION_CLOSED", method: "thread/list", close: { reason: "eof", closeCode: 1006 } });
  expect(client.state).toBe("closed");
});

it("an aborted signal gives up the opening handshake", async () => {
  const url = await tcpServer(() => {});
  const controller = new AbortController();
  const opening = openWebSocketTransport({ url, WebSocket: Ws, signal: controller.signal }).catch((e: unknown) => e);
  controller.abort(new Error("user gave up"));
  const error = await opening;
  expect(error).toMatchObject({ code: "CONNECT_FAILED" });
  expect((error as Error).message).toContain("aborted (Error: user gave up)");
});

it("a token with CR, LF or NUL is a typed INVALID_OPTION before anything is opened, and the token is never quoted", async () => {
  for (const token of ["abc\r\nX-Injected: 1", "abc\nsecret", "abc\0def"]) {
    const error = await openWebSocketTransport({ url: "ws://127.0.0.1:1", token, WebSocket: Ws }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID_OPTION", option: "token" });
    expect(String((error as Error).message)).not.toContain("abc");
  }
});

it("a URL the runtime cannot parse is a typed CONNECT_FAILED that never quotes its credentials", async () => {
  const error = await openWebSocketTransport({ url: "ws://user:FAKEpassw0rd@127.0.0.1:notaport", WebSocket: Ws }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WebSocketConnectError);
  expect(error).toMatchObject({ code: "CONNECT_FAILED" });
  expect(JSON.stringify({ message: (error as Error).message, url: (error as WebSocketConnectError).url })).not.toContain("FAKEpassw0rd");
});

it("a url that is no string (a JavaScript caller, a config value never set) is an InvalidOptionError, never a raw TypeError (review 8 W1)", async () => {
  const { openWebSocketTransport: openNode } = await import("../src/node.js");
  for (const url of [42, null, {}]) {
    for (const open of [() => openWebSocketTransport({ url, WebSocket: Ws } as never), () => openNode({ url } as never)]) {
      await expect(open()).rejects.toMatchObject({ name: "InvalidOptionError", code: "INVALID_OPTION", option: "url" });
    }
  }
  await expect(openNode({ socketPath: 5 } as never)).rejects.toMatchObject({ code: "INVALID_OPTION", option: "socketPath" });
});

it("a string holding a lone surrogate goes out as U+FFFD: codex drops a frame holding the escape JSON.stringify writes", async () => {
  const frames: string[] = [];
  const url = await fakeServer((socket) => {
    socket.on("message", (data) => frames.push(String(data)));
    answering(socket);
  });
  const client = await CodexClient.connect(await openWebSocketTransport({ url, WebSocket: Ws }));
  cleanups.push(() => client.close());
  await client.requestUntyped("thread/name/set", { threadId: "t", name: "cut \ud83d" });
  expect(frames.find((frame) => frame.includes("thread/name/set"))).toContain('"name":"cut \\ufffd"');
});
