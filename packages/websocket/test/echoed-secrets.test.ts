// A server that echoes the secrets the WebSocket transport holds (the bearer `token`, the relay token
// in its subprotocol) gets none of them into an error, `client.closed`, a diagnostic or a message:
// the transport takes them out of every frame and the close reason, by value (review 5, F3).
import { once } from "node:events";
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { CodexClient, ConnectionClosedError, ServerError, type ConnectionDiagnostic } from "@codex-rpc/core";
import { openRelayTransport, openWebSocketTransport, type WebSocketConstructor } from "../src/index.js";

const TOKEN = "kT7q2mZp9xW4vN8rL3sY6bH1cJ5fD0gA"; // a capability token: random, no shape redactSecrets knows
const RELAY_TOKEN = "Zr9Kp2WqX7mN4vB8cL1sT6yH3jD5fG0a";
const Ws = WebSocket as unknown as WebSocketConstructor;
const INIT = { userAgent: "x/0.169.0", codexHome: "/tmp", platformFamily: "unix", platformOs: "linux" };

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

type OnRequest = (socket: WebSocket, request: { id?: number; method?: string }, upgrade: IncomingMessage) => void;

/** A `ws` server (selecting the relay's subprotocol when offered) that answers `initialize`, then calls `onRequest` for each request. */
async function server(onRequest: OnRequest): Promise<string> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, handleProtocols: (offered) => (offered.has("codex-rpc.v1") ? "codex-rpc.v1" : false) });
  servers.push(wss);
  wss.on("connection", (socket, upgrade) =>
    socket.on("message", (data) => {
      const request = JSON.parse(String(data)) as { id?: number; method?: string };
      if (request.method === "initialize") socket.send(JSON.stringify({ id: request.id, result: INIT }));
      else if (request.id !== undefined) onRequest(socket, request, upgrade);
    }),
  );
  await once(wss, "listening");
  return `ws://127.0.0.1:${(wss.address() as { port: number }).port}`;
}

const bearerOf = (upgrade: IncomingMessage) => String(upgrade.headers.authorization).slice("Bearer ".length);

/** Everything a user sees of a failed request and of the end of the connection, as text. */
async function whatTheUserSees(client: CodexClient, request: Promise<unknown>): Promise<{ error: unknown; text: string }> {
  const error = await request.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  await client.close();
  const closed = await client.closed;
  const text = [String(error), (error as Error).stack, JSON.stringify(error), JSON.stringify(closed)].join("\n");
  return { error, text };
}

describe("a secret echoed in the close reason", () => {
  it("the bearer token: out of ConnectionClosedError (message, close.closeReason) and client.closed", async () => {
    const url = await server((socket, request, upgrade) => {
      if (request.method === "thread/start") socket.close(4001, `token ${bearerOf(upgrade)} revoked`);
    });
    const client = await CodexClient.connect(await openWebSocketTransport({ url, token: TOKEN, WebSocket: Ws }));
    const { error, text } = await whatTheUserSees(client, client.startThread());
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as ConnectionClosedError).close.closeReason).toBe("token [REDACTED] revoked");
    expect((error as Error).message).toContain("code 4001: token [REDACTED] revoked");
    expect(text).not.toContain(TOKEN);
  });

  it("the relay token: its subprotocol and the token alone, while the public codex-rpc.v1 stays", async () => {
    const url = await server((socket, request, upgrade) => {
      if (request.method === "thread/start") socket.close(4001, `${upgrade.headers["sec-websocket-protocol"]} / ${RELAY_TOKEN}`);
    });
    const client = await CodexClient.connect(await openRelayTransport({ url, token: RELAY_TOKEN, WebSocket: Ws }));
    const { error, text } = await whatTheUserSees(client, client.startThread());
    expect((error as ConnectionClosedError).close.closeReason).toBe("codex-rpc.v1,[REDACTED] / [REDACTED]");
    expect(text).not.toContain(RELAY_TOKEN);
  });

  it("the transport's own closed info is redacted too (for a transport used without a client)", async () => {
    const url = await server((socket, _request, upgrade) => socket.close(4001, `bye ${bearerOf(upgrade)}`));
    const transport = await openWebSocketTransport({ url, token: TOKEN, WebSocket: Ws });
    await transport.send({ id: 1, method: "x" } as never);
    expect(await transport.closed).toMatchObject({ reason: "eof", closeCode: 4001, closeReason: "bye [REDACTED]" });
  });
});

describe("a secret echoed in a JSON-RPC error", () => {
  it("out of ServerError's message, rpcMessage and data (strings and keys, however deep)", async () => {
    const url = await server((socket, request, upgrade) => {
      const token = bearerOf(upgrade);
      const error = { code: -32000, message: `capability ${token} has no scope thread/start`, data: { seen: [`Bearer ${token}`], [token]: { again: token } } };
      socket.send(JSON.stringify({ id: request.id, error }));
    });
    const client = await CodexClient.connect(await openWebSocketTransport({ url, token: TOKEN, WebSocket: Ws }));
    const { error, text } = await whatTheUserSees(client, client.startThread());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({
      rpcCode: -32000,
      rpcMessage: "capability [REDACTED] has no scope thread/start",
      data: { seen: ["Bearer [REDACTED]"], "[REDACTED]": { again: "[REDACTED]" } },
    });
    expect(text).not.toContain(TOKEN);
  });

  it("the relay token in a reply's error message", async () => {
    const url = await server((socket, request, upgrade) => {
      socket.send(JSON.stringify({ id: request.id, error: { code: -32600, message: `offered ${upgrade.headers["sec-websocket-protocol"]}` } }));
    });
    const client = await CodexClient.connect(await openRelayTransport({ url, token: RELAY_TOKEN, WebSocket: Ws }));
    const { error, text } = await whatTheUserSees(client, client.startThread());
    expect((error as ServerError).rpcMessage).toBe("offered codex-rpc.v1,[REDACTED]");
    expect(text).not.toContain(RELAY_TOKEN);
  });

  it("a token holding a quote and a backslash (escaped in the JSON text) is found too", async () => {
    const token = 'odd"token\\with-quote';
    const url = await server((socket, request, upgrade) => {
      socket.send(JSON.stringify({ id: request.id, error: { code: -32000, message: `got ${bearerOf(upgrade)}!` } }));
    });
    const client = await CodexClient.connect(await openWebSocketTransport({ url, token, WebSocket: Ws }));
    const { error } = await whatTheUserSees(client, client.startThread());
    expect((error as ServerError).rpcMessage).toBe("got [REDACTED]!");
  });
});

describe("a secret echoed in anything else the server sends", () => {
  it("out of diagnostics: an invalid frame's excerpt, an unclassifiable message, a token cut at the excerpt's end", async () => {
    const url = await server((socket, request, upgrade) => {
      const token = bearerOf(upgrade);
      socket.send(`not json ${token}`);
      socket.send(JSON.stringify({ id: null, echo: token }));
      // The excerpt keeps 200 characters: the token starts at 190, so a cut would keep its first 10.
      socket.send(`${"x".repeat(190)}${token} and more`);
      socket.send(JSON.stringify({ id: request.id, result: { thread: null } }));
    });
    const client = await CodexClient.connect(await openWebSocketTransport({ url, token: TOKEN, WebSocket: Ws }));
    const diagnostics: ConnectionDiagnostic[] = [];
    client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    await client.startThread().catch(() => undefined);
    await client.close();
    expect(diagnostics.map((diagnostic) => diagnostic.kind)).toEqual(expect.arrayContaining(["invalid-json", "unclassifiable-message"]));
    const text = JSON.stringify(diagnostics);
    expect(text).toContain("not json [REDACTED]");
    expect(text).not.toContain(TOKEN.slice(0, 8));
  });

  it("out of notifications and results: the token never enters the client", async () => {
    const url = await server((socket, request, upgrade) => {
      socket.send(JSON.stringify({ method: "echo/said", params: { text: `you sent ${bearerOf(upgrade)}` } }));
      socket.send(JSON.stringify({ id: request.id, result: { echo: bearerOf(upgrade) } }));
    });
    const client = await CodexClient.connect(await openWebSocketTransport({ url, token: TOKEN, WebSocket: Ws }));
    const said: unknown[] = [];
    client.unknownNotifications().subscribe((notification) => said.push(notification.params));
    const result = await client.requestUntyped("echo/back", {});
    await client.close();
    expect(result).toEqual({ echo: "[REDACTED]" });
    expect(said).toEqual([{ text: "you sent [REDACTED]" }]);
  });
});
