// isolation "process" in front of ONE running app-server (`upstream: { url }`, codex 0.169.0): each
// page gets a WebSocket session of its own, but the sessions share the server's loaded threads.
// Each session's multiplexer knew only its own page, so page B saw page A's running thread in
// thread/list, resumed it (codex answered with it) and could then interrupt or steer A's turn —
// codex's turn/interrupt error even names the active turn id. The multiplexers of one relay now
// share who owns which thread, as the threads of one shared app-server are.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import type WebSocket from "ws";
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";
import { startCodexWebSocketServer } from "../../websocket/test/support/codex-websocket-server.js";
import { RelayErrorCode, startRelay } from "../src/index.js";
import { call, tryUpgrade } from "./support/relay-clients.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function page(url: string, token: string): Promise<{ socket: WebSocket; seen: string[] }> {
  const outcome = await tryUpgrade(url, { token });
  if (!("socket" in outcome)) throw new Error(`refused: ${outcome.status}`);
  const seen: string[] = [];
  outcome.socket.on("message", (data) => seen.push(String(data)));
  cleanups.push(async () => outcome.socket.close());
  await call(outcome.socket, 0, "initialize", { clientInfo: { name: "page", version: "0" }, capabilities: { experimentalApi: true } });
  return { socket: outcome.socket, seen };
}

it("page B neither lists, resumes, reads nor forks page A's running thread", { timeout: 60_000 }, async () => {
  const provider = await MockResponsesProvider.start({ script: [reply.hang()] });
  const home = await createCodexHome({ provider });
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const workspace = join(home.dir, "workspace");
  await mkdir(workspace);
  const server = await startCodexWebSocketServer({ env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env }, cwd: workspace });
  cleanups.push(() => server.stop());
  const relay = await startRelay({ upstream: { url: server.url }, isolation: "process" });
  cleanups.push(() => relay.close());
  const a = await page(relay.url, relay.token);
  const b = await page(relay.url, relay.token);

  const started = (await call(a.socket, 1, "thread/start", { cwd: workspace, approvalPolicy: "never" })) as { result: { thread: { id: string } } };
  const threadId = started.result.thread.id;
  await call(a.socket, 2, "turn/start", { threadId, input: [{ type: "text", text: "secret plans", text_elements: [] }] });
  await provider.waitForRequests(1);

  const listed = (await call(b.socket, 3, "thread/list", {})) as { result: { data: { id: string }[] } };
  expect(listed.result.data.map((thread) => thread.id)).not.toContain(threadId);
  const refused = async (id: number, method: string, params: unknown) =>
    ((await call(b.socket, id, method, params)) as { error?: { code: number } }).error?.code;
  expect(await refused(4, "thread/resume", { threadId })).toBe(RelayErrorCode.threadNotOwned);
  expect(await refused(5, "thread/read", { threadId })).toBe(RelayErrorCode.threadNotOwned);
  expect(await refused(6, "thread/fork", { threadId })).toBe(RelayErrorCode.threadNotOwned);
  expect(b.seen.filter((text) => text.includes(threadId) && text.includes('"method"'))).toEqual([]); // none of A's notifications
  // A's own session still works: its turn is its own to interrupt.
  const turns = a.seen.map((text) => JSON.parse(text) as { method?: string; params?: { turn?: { id: string } } });
  const turnId = turns.find((message) => message.method === "turn/started")?.params?.turn?.id;
  expect(((await call(a.socket, 7, "turn/interrupt", { threadId, turnId })) as { result?: unknown }).result).toEqual({});
});

it("page B's fuzzyFileSearch does not cut page A's short, though both use the token \"t\"", { timeout: 60_000 }, async () => {
  // codex keeps the token in one namespace for all its connections: a search with a token in use
  // cancels the running one (measured: 20 files after 43 ms instead of 50). Each page's session is
  // its own multiplexer, so each must scope the token differently.
  const provider = await MockResponsesProvider.start({ script: [] });
  const home = await createCodexHome({ provider });
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const server = await startCodexWebSocketServer({ env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env }, cwd: home.dir });
  cleanups.push(() => server.stop());
  const relay = await startRelay({ upstream: { url: server.url }, isolation: "process" });
  cleanups.push(() => relay.close());
  const a = await page(relay.url, relay.token);
  const b = await page(relay.url, relay.token);
  const search = { query: "indexjs", roots: ["/usr"], cancellationToken: "t" };
  type Found = { result: { files: unknown[] } };
  const alone = ((await call(a.socket, 1, "fuzzyFileSearch", search)) as Found).result.files.length;
  const aSearch = call(a.socket, 2, "fuzzyFileSearch", search) as Promise<Found>;
  await new Promise((resolve) => setTimeout(resolve, 30));
  await call(b.socket, 3, "fuzzyFileSearch", { query: "zzz", roots: [home.dir], cancellationToken: "t" });
  expect((await aSearch).result.files.length).toBe(alone);
});
