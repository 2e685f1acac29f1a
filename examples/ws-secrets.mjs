#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// codex-rpc: the secrets a WebSocket transport holds never reach an error, a diagnostic or a
// message, even when the server echoes them. Offline, with the bundled mock model:
//
//   node examples/ws-secrets.mjs
//
// 1. A server that echoes the bearer token it was given (a `ws` server in this process): in a
//    JSON-RPC error's message and data, then in its close reason. The client sees [REDACTED].
// 2. The real codex app-server behind @codex-rpc/relay: a prompt quoting the relay token, which
//    codex echoes in the user's message item and the model repeats. The page sees [REDACTED].
//    (Only a token whole in one frame is found: one a model streams across two deltas is in no
//    frame whole, so `text$`'s pieces joined hold it, though the completed message does not.)
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocketServer } from "ws";
import { CodexClient, ServerError } from "@codex-rpc/core";
import { startRelay } from "@codex-rpc/relay";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";
import { openRelayTransport, openWebSocketTransport } from "@codex-rpc/websocket";

const TOKEN = "example-capability-token-5f2c9a7e1b";
/** The relay's token (given here so that the mock model can repeat it; by default the relay makes one). */
const RELAY_TOKEN = "Kq7wZ2pX9mB4vN8rL3sY6hJ1cD5fG0aT";

/**
 * A server that answers `initialize`, then echoes the token in an error reply (the first request)
 * and in its close reason (the second).
 * @returns {Promise<{ url: string, close(): Promise<unknown> }>}
 */
async function echoingServer() {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve) => wss.once("listening", resolve));
  wss.on("connection", (socket, upgrade) => {
    const token = String(upgrade.headers.authorization).slice("Bearer ".length);
    let requests = 0;
    socket.on("message", (data) => {
      const message = JSON.parse(String(data));
      if (message.id === undefined) return;
      if (message.method === "initialize") {
        socket.send(JSON.stringify({ id: message.id, result: { userAgent: "echo/0", codexHome: "/tmp", platformFamily: "unix", platformOs: "linux" } }));
      } else if (++requests === 1) {
        socket.send(JSON.stringify({ id: message.id, error: { code: -32000, message: `token ${token} has no scope`, data: { echo: [token] } } }));
      } else {
        socket.close(4001, `token ${token} revoked`);
      }
    });
  });
  const address = /** @type {import("node:net").AddressInfo} */ (wss.address());
  return { url: `ws://127.0.0.1:${address.port}`, close: () => new Promise((resolve) => wss.close(resolve)) };
}

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  const echo = await echoingServer();
  cleanups.push(() => echo.close());
  const client = await CodexClient.connect(await openWebSocketTransport({ url: echo.url, token: TOKEN }));
  const refused = await client.request("thread/list", {}).catch((/** @type {unknown} */ error) => error);
  if (refused instanceof ServerError) console.log(`1. error reply: ${refused.message}; data ${JSON.stringify(refused.data)}`);
  const dropped = await client.request("thread/list", {}).catch((/** @type {Error} */ error) => error);
  console.log(`1. close: ${dropped instanceof Error ? dropped.message : "no error?!"}`);
  console.log(`1. client.closed: ${JSON.stringify(await client.closed)}`);

  const provider = await MockResponsesProvider.start({ script: [reply.text(`Your token is ${RELAY_TOKEN}, I should not have said so.`, { chunks: 1 })] });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-ws-secrets-example-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  const relay = await startRelay({ upstream: { spawn: { cwd: workspace, env: home.env } }, token: RELAY_TOKEN });
  cleanups.push(() => relay.close());

  const page = await CodexClient.connect(await openRelayTransport({ url: relay.url, token: RELAY_TOKEN, heartbeat: false }));
  cleanups.push(() => page.close());
  const thread = await page.startThread({ cwd: workspace, approvalPolicy: "never" });
  const completed = await thread.run(`Here is my relay token, ${RELAY_TOKEN}: do not repeat it`).completed;
  const userMessage = completed.items.find((item) => item.type === "userMessage");
  const said = userMessage?.type === "userMessage" ? userMessage.content.map((part) => (part.type === "text" ? part.text : "")).join("") : "";
  console.log(`2. codex echoed the prompt as: ${said}`);
  console.log(`2. the model: ${completed.finalText}`);
  const everything = JSON.stringify(completed);
  console.log(`2. the relay token appears in the page's turn: ${everything.includes(RELAY_TOKEN) ? "yes?!" : "no"}`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}
