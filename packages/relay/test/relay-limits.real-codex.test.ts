// isolation "process" starts an app-server per connection: what a page sends before it is ready
// waits, up to maxQueuedWhileStarting (the rate limit only applies once it is open). Against the
// real codex 0.169.0, spawned per connection.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { createCodexHome, MockResponsesProvider } from "@codex-rpc/testing";
import { RelayCloseCode, startRelay } from "../src/index.js";
import { call, tryUpgrade } from "./support/relay-clients.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function processRelay(more: { maxConnections?: number } = {}) {
  const provider = await MockResponsesProvider.start({ script: [] });
  const home = await createCodexHome({ provider });
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const workspace = join(home.dir, "workspace");
  await mkdir(workspace);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env };
  const relay = await startRelay({
    isolation: "process",
    upstream: { spawn: { codexPath: pinnedCodexBinary(), cwd: workspace, env } },
    maxQueuedWhileStarting: { messages: 5 },
    ...more,
  });
  cleanups.push(() => relay.close());
  return relay;
}

async function open(relay: { url: string; token: string }) {
  const outcome = await tryUpgrade(relay.url, { token: relay.token });
  if (!("socket" in outcome)) throw new Error(`refused: ${outcome.status}`);
  return outcome.socket;
}

it("messages sent while the app-server starts wait for it, in order, up to the cap", async () => {
  const relay = await processRelay();
  const socket = await open(relay);
  const initialized = call(socket, 1, "initialize", { clientInfo: { name: "page", version: "0" } });
  const loaded = call(socket, 2, "thread/loaded/list", {});
  expect((await initialized).result).toMatchObject({ userAgent: expect.stringMatching(/^codex_rpc_relay\/0\.169\.0/) });
  expect((await loaded).result).toEqual({ data: [], nextCursor: null });
  socket.close();
});

it("more than the cap before the app-server is ready closes the connection with 1008", async () => {
  const relay = await processRelay();
  const socket = await open(relay);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once("close", (code, reason) => resolve({ code, reason: String(reason) })));
  const startedAt = Date.now();
  for (let id = 1; id <= 20; id++) socket.send(JSON.stringify({ id, method: "thread/loaded/list", params: {} }));
  const { code, reason } = await closed;
  console.log(`20 messages sent at once to a process-isolated connection (cap 5): closed ${code} "${reason}" after ${Date.now() - startedAt} ms`);
  expect({ code, reason }).toEqual({ code: RelayCloseCode.rateLimited, reason: "too many messages before the app-server was ready" });
});

it("maxConnections bounds the app-servers: a connection counts until its app-server is closed (issue 15, finding 6)", async () => {
  const relay = await processRelay({ maxConnections: 2 });
  const codes: number[] = [];
  for (let i = 0; i < 10; i++) {
    const socket = await open(relay);
    const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    socket.close();
    codes.push(await closed);
  }
  // Wait for the app-servers that did start to be closed, then count their handshakes.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const started = relay.upstreamMessageCount / 2; // initialize + initialized each
  console.log(`10 connections opened and closed at once, maxConnections 2: ${started} app-servers started; close codes ${codes.join(",")}`);
  expect(started).toBeLessThanOrEqual(2);
  expect(codes).toContain(RelayCloseCode.tooManyConnections);
});
