#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// codex-rpc relay: what a browser page goes through to reach `codex app-server`, shown with two
// Node "pages" (a CodexClient over the WebSocket transport that offers the token as a subprotocol
// and sends an Origin header, as a browser does). Offline, with the bundled mock model:
//
//   node examples/relay.mjs
//
// Page A starts a thread and streams a turn through the relay; page B (same token, same origin)
// cannot touch A's thread; a page of a foreign origin is refused with 403 before the upgrade; the
// relay's own app-server exits when the relay closes.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { CodexClient } from "@codex-rpc/core";
import { startRelay } from "@codex-rpc/relay";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";
import { openRelayTransport } from "@codex-rpc/websocket";

const PAGE_ORIGIN = "http://localhost:5173";

/**
 * `ws` sending an Origin header, as a browser does (a browser's own WebSocket needs nothing).
 * @param {string} origin
 * @returns {import("@codex-rpc/websocket").WebSocketConstructor}
 */
function wsWithOrigin(origin) {
  return /** @type {any} */ (
    class extends WebSocket {
      /** @param {string} url @param {string[]} [protocols] @param {WebSocket.ClientOptions} [init] */
      constructor(url, protocols = [], init = {}) {
        super(url, protocols, { ...init, origin });
      }
    }
  );
}

/**
 * A page connects with `openRelayTransport`: the token goes in a subprotocol, never in the URL.
 * @param {string} url
 * @param {string} token
 * @param {string} origin
 */
async function openPage(url, token, origin) {
  const transport = await openRelayTransport({ url, token, WebSocket: wsWithOrigin(origin), heartbeat: false });
  return CodexClient.connect(transport, { clientInfo: { name: "relay_example_page", version: "0.0.0" } });
}

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  const provider = await MockResponsesProvider.start({ script: [reply.text("Hello, page A. This answer came through the relay.", { chunks: 6 })] });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-relay-example-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));

  const relay = await startRelay({ upstream: { spawn: { cwd: workspace, env: home.env } }, allowedOrigins: [PAGE_ORIGIN] });
  cleanups.push(() => relay.close());
  console.log(`relay on ${relay.url} (app-server pid ${relay.upstreamPid}); pages from ${PAGE_ORIGIN} may connect with the token`);

  const discovery = await fetch(`http://127.0.0.1:${relay.port}/.well-known/codex-rpc-relay`, { headers: { origin: PAGE_ORIGIN } });
  console.log(`discovery: ${await discovery.text()}`.trimEnd());

  const pageA = await openPage(relay.url, relay.token, PAGE_ORIGIN);
  cleanups.push(() => pageA.close());
  const thread = await pageA.startThread({ cwd: workspace, approvalPolicy: "never" });
  process.stdout.write("page A: ");
  const turn = thread.run("Say hello to page A");
  turn.text$.subscribe((delta) => process.stdout.write(delta));
  const completed = await turn.completed;
  console.log(`\npage A: turn ${completed.status}`);

  const pageB = await openPage(relay.url, relay.token, PAGE_ORIGIN);
  cleanups.push(() => pageB.close());
  const refused = await pageB.request("thread/read", { threadId: thread.id, includeTurns: false }).catch((/** @type {Error} */ error) => error);
  console.log(`page B reading page A's thread: ${refused instanceof Error ? `refused (${refused.message})` : "allowed?!"}`);

  const foreign = await openPage(relay.url, relay.token, "http://evil.example").catch((/** @type {Error} */ error) => error);
  console.log(`a page from http://evil.example: ${foreign instanceof Error ? `refused (${foreign.message})` : "connected?!"}`);

  const pid = relay.upstreamPid ?? 0;
  await relay.close();
  let alive = true;
  try {
    process.kill(pid, 0);
  } catch {
    alive = false;
  }
  console.log(`relay closed; app-server pid ${pid} ${alive ? "still running?!" : "has exited"}`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}
