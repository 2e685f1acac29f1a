#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// codex-rpc browser client: the code a web page runs to reach `codex app-server` through the relay
// — `openRelayTransport({ url, token })` and the same CodexClient as everywhere — run here under
// Node as a stand-in for the page (Node 22's global WebSocket, or `ws` on Node 20). Offline, with
// the bundled mock model:
//
//   node examples/browser-client.mjs
//
// A page finds the relay (its discovery document), connects with the token as a subprotocol and
// streams a turn; another page sees only its own threads in lists; a wrong token is refused, and
// the error says it was the relay; a page that leaves mid-turn has its turn interrupted.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CodexClient } from "@codex-rpc/core";
import { startRelay } from "@codex-rpc/relay";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";
import { openRelayTransport, RELAY_DISCOVERY_PATH } from "@codex-rpc/websocket";

/**
 * What a page does: connect through the relay with its token, reconnecting after drops.
 * @param {string} url
 * @param {string} token
 */
function openPage(url, token) {
  return CodexClient.connect(() => openRelayTransport({ url, token }), { reconnect: true, clientInfo: { name: "browser_client_example", version: "0.0.0" } });
}

/**
 * @param {() => boolean} check
 * @param {string} what
 */
async function until(check, what) {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > 15_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  // The mock model: a streamed answer for the first page, and a turn that never ends for the second.
  const provider = await MockResponsesProvider.start({ script: [reply.text("Hello from the browser client.", { chunks: 5 }), reply.hang()] });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-browser-example-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));

  /** @type {string[]} */
  const relayLog = [];
  const relay = await startRelay({ upstream: { spawn: { cwd: workspace, env: home.env } }, log: (line) => relayLog.push(line) });
  cleanups.push(() => relay.close());

  // The page is given the relay's address and its token by its user; it asks where the WebSocket is.
  const discovery = /** @type {{ ws: string }} */ (await (await fetch(`http://127.0.0.1:${relay.port}${RELAY_DISCOVERY_PATH}`)).json());
  console.log(`discovery says the relay's WebSocket is ${discovery.ws}`);

  const page = await openPage(discovery.ws, relay.token);
  cleanups.push(() => page.close());
  console.log(`page: connected (${page.state}), codex ${page.serverVersion}`);
  const thread = await page.startThread({ cwd: workspace, approvalPolicy: "never" });
  process.stdout.write("page: ");
  const turn = thread.run("Say hello to the page");
  turn.text$.subscribe((delta) => process.stdout.write(delta));
  console.log(`\npage: turn ${(await turn.completed).status}`);

  const other = await openPage(discovery.ws, relay.token);
  cleanups.push(() => other.close());
  const loaded = await other.request("thread/loaded/list", {});
  console.log(`another page's thread/loaded/list: ${JSON.stringify(loaded.data)} (the first page's thread is not its to see)`);

  const wrong = await openRelayTransport({ url: discovery.ws, token: "not-the-token" }).catch((/** @type {Error} */ error) => error);
  console.log(`a wrong token: ${wrong instanceof Error ? wrong.message : "connected?!"}`);

  // The other page starts a turn the model never answers, then leaves (the tab is closed).
  const otherThread = await other.startThread({ cwd: workspace, approvalPolicy: "never" });
  await otherThread.run("This is never answered").started;
  await until(() => provider.requests.length >= 2, "codex to ask the model");
  await other.close();
  await until(() => relayLog.some((line) => line.startsWith("unsubscribed thread")), "the relay to give the thread up");
  for (const line of relayLog.filter((entry) => /^(interrupted|unsubscribed)/.test(entry)))
    console.log(`relay: ${line.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "…")}`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}
