#!/usr/bin/env node
// Soak for @codex-rpc/core: streams 1 000 000 `item/agentMessage/delta` notifications through the
// whole client (NDJSON transport → JsonRpcConnection → CodexClient → a Turn's text$ subscriber),
// fed in 64 KiB chunks as a pipe delivers them, and prints the heap before and after against a
// 10 MB bound, with the number of messages delivered (it must equal the number sent).
//
// Usage: node tools/soak.mjs [--messages N] [--per-turn N] [--bound-mb N] [--json]
//        (root script: `pnpm soak`; it re-runs itself with --expose-gc when needed)
//
// The deltas are spread over turns of --per-turn deltas each (default 10 000), one after the
// other on one thread of one long-lived client, as a session would run them: a turn keeps its own
// text until it ends (its `completed` carries it), so one turn of a million deltas would hold that
// text by design; what must not grow is whatever the client keeps across turns. One delta in 20
// holds non-ASCII text, so both paths of the framing run. "Before" is measured after a warm-up
// turn, "after" once the last turn has ended, with the client still open; both after full
// garbage collections. Exits 1 if a message was lost or the growth is over the bound.
// --json adds one machine-readable line at the end (for test/reliability/soak.test.ts).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { importBuilt } from "./support/built-packages.mjs";

if (typeof globalThis.gc !== "function") {
  // Heap figures mean something only after a full collection, which needs --expose-gc.
  const rerun = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exit(rerun.status ?? 1);
}

const { CodexClient } = await importBuilt("packages/core/dist/index.js");
const { NdjsonDecoder, createNdjsonTransport, encodeNdjsonLine } = await importBuilt("packages/core/dist/transport.js");
const { clientInternals } = await importBuilt("packages/core/dist/testing.js");
const { nodeDecoding } = await importBuilt("packages/stdio/dist/index.js");

const { values: args } = parseArgs({
  options: {
    messages: { type: "string", default: "1000000" },
    "per-turn": { type: "string", default: "10000" },
    "bound-mb": { type: "string", default: "10" },
    json: { type: "boolean", default: false },
  },
});
const MESSAGES = Number(args.messages);
const PER_TURN = Number(args["per-turn"]);
const BOUND_MB = Number(args["bound-mb"]);
if (!(MESSAGES > 0 && PER_TURN > 0 && BOUND_MB > 0)) {
  console.error("--messages, --per-turn and --bound-mb take positive numbers");
  process.exit(2);
}
const CHUNK = 64 * 1024;
const THREAD = "019a0000-0000-7000-8000-000000000001";
const MB = 1024 * 1024;

const { decodeUtf8, isAscii, decodeAscii } = nodeDecoding;

function protocolTurn(id, status) {
  return { id, status, items: [], error: null, startedAt: null, completedAt: null, durationMs: null, itemsView: "notLoaded", rootTurnId: null };
}

/**
 * A client connected to an in-process server that answers the handshake and `turn/start` (a new
 * turn id each time); the soak feeds the turns' notifications itself.
 */
async function connectedClient() {
  let sink;
  let endWith;
  let turns = 0;
  const ended = new Promise((r) => (endWith = r));
  const server = new NdjsonDecoder({
    onMessage: (message) => {
      if (message.id === undefined) return;
      const results = {
        initialize: { userAgent: "soak", codexHome: "/tmp", platformFamily: "unix", platformOs: "linux" },
        "turn/start": { turn: protocolTurn(`turn-${++turns}`, "inProgress") },
      };
      sink.data(encodeNdjsonLine({ id: message.id, result: results[message.method] ?? {} }));
    },
  });
  const transport = createNdjsonTransport({
    input: (s) => (sink = s),
    write: (bytes) => server.push(bytes),
    decodeUtf8,
    isAscii,
    decodeAscii,
    shutdown: async () => (sink.end(), endWith({ reason: "closed" }), ended),
    ended,
  });
  const client = await CodexClient.connect(transport);
  // The thread is made by hand: the soak is about notifications, not thread/start.
  const thread = clientInternals(client).threadFor({ id: THREAD, turns: [] });
  return { client, thread, feed: (chunk) => sink.data(chunk) };
}

function delta(seq) {
  return seq % 20 === 0 ? ` l’answer — part ${seq}, ünïcödé` : ` the answer, part ${seq}, continues`;
}

/**
 * One turn's notifications from `firstSeq` on, as NDJSON cut into 64 KiB chunks (lines split
 * across chunks, as from a pipe). Returns the chunks and the text the deltas add up to.
 */
function turnChunks(turnId, firstSeq, count) {
  const itemId = `${turnId}-message`;
  const item = { type: "agentMessage", id: itemId, text: "", phase: null, memoryCitation: null };
  const lines = [
    { method: "turn/started", params: { threadId: THREAD, turn: protocolTurn(turnId, "inProgress") } },
    { method: "item/started", params: { threadId: THREAD, turnId, item, startedAtMs: 0 } },
  ].map((message) => JSON.stringify(message));
  const pieces = [];
  for (let seq = firstSeq; seq < firstSeq + count; seq++) {
    const piece = delta(seq);
    pieces.push(piece);
    lines.push(
      JSON.stringify({ method: "item/agentMessage/delta", params: { threadId: THREAD, turnId, itemId, delta: piece }, emittedAtMs: 1763800000000 + seq }),
    );
  }
  // As from the real server, item/completed carries the whole text (one long line).
  const text = pieces.join("");
  lines.push(JSON.stringify({ method: "item/completed", params: { threadId: THREAD, turnId, item: { ...item, text }, completedAtMs: 0 } }));
  lines.push(JSON.stringify({ method: "turn/completed", params: { threadId: THREAD, turn: protocolTurn(turnId, "completed") } }));
  const bytes = Buffer.from(`${lines.join("\n")}\n`);
  const chunks = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK) chunks.push(bytes.subarray(offset, offset + CHUNK));
  return { chunks, text };
}

/**
 * Runs one turn of `count` deltas; returns how many reached the text$ subscriber, and whether what
 * they add up to, and the turn's final text, are the text sent.
 */
async function runTurn(thread, feed, firstSeq, count) {
  const turn = thread.run("soak");
  let delivered = 0;
  let deliveredChars = 0;
  const subscription = turn.text$.subscribe((piece) => {
    delivered++;
    deliveredChars += piece.length;
  });
  const turnId = await turn.started;
  const { chunks, text } = turnChunks(turnId, firstSeq, count);
  for (const chunk of chunks) feed(chunk);
  const done = await turn.completed;
  subscription.unsubscribe();
  if (done.status !== "completed") throw new Error(`turn ${turnId} ended ${done.status}`);
  return { delivered, textIntact: deliveredChars === text.length && done.finalText === text };
}

/** heapUsed after full collections, with a turn of the event loop between them for finalizers. */
async function settledHeap() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

const { client, thread, feed } = await connectedClient();
// Warm-up: compiled code and the client's lazily made structures are not growth.
await runTurn(thread, feed, 0, Math.min(PER_TURN, MESSAGES));
const before = await settledHeap();

let sent = 0;
let delivered = 0;
let turns = 0;
let damagedTurns = 0;
let peak = before;
const started = performance.now();
while (sent < MESSAGES) {
  const count = Math.min(PER_TURN, MESSAGES - sent);
  const outcome = await runTurn(thread, feed, sent, count);
  sent += count;
  delivered += outcome.delivered;
  turns++;
  if (!outcome.textIntact) damagedTurns++;
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}
const elapsedMs = performance.now() - started;
const after = await settledHeap();
const leftOver = {
  pendingRequests: clientInternals(client).connection.pendingRequestCount,
  threadListeners: clientInternals(client).threadListenerCount,
  notificationSubscribers: clientInternals(client).notificationSubscriberCount,
};
await client.close();

const growthMb = (after - before) / MB;
const lost = sent - delivered;
const withinBound = growthMb <= BOUND_MB;
const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`;
console.log(
  `soak: node ${process.version}, ${sent.toLocaleString("en")} item/agentMessage/delta notifications in ${turns} turns of up to ${PER_TURN.toLocaleString("en")}, 64 KiB chunks`,
);
console.log(`  heap before   ${mb(before).padStart(9)}  (after a warm-up turn and full GC)`);
console.log(`  heap after    ${mb(after).padStart(9)}  (after the last turn and full GC, client still open)`);
console.log(`  growth        ${`${growthMb.toFixed(2)} MB`.padStart(9)}  bound ${BOUND_MB} MB: ${withinBound ? "within" : "OVER"}`);
console.log(`  peak heap between turns (no GC, information): ${mb(peak)}`);
console.log(
  `  delivered     ${delivered.toLocaleString("en")} of ${sent.toLocaleString("en")} sent, ${lost.toLocaleString("en")} lost; turns with damaged text: ${damagedTurns}`,
);
console.log(
  `  left over     ${leftOver.pendingRequests} pending requests, ${leftOver.threadListeners} thread listeners, ${leftOver.notificationSubscribers} notification subscribers`,
);
console.log(`  time          ${(elapsedMs / 1000).toFixed(2)} s, ${Math.round(sent / (elapsedMs / 1000)).toLocaleString("en")} msg/s (information)`);
if (args.json) {
  console.log(JSON.stringify({ sent, delivered, lost, turns, damagedTurns, heapBefore: before, heapAfter: after, growthMb, boundMb: BOUND_MB, leftOver }));
}
const clean = lost === 0 && damagedTurns === 0 && withinBound && Object.values(leftOver).every((n) => n === 0);
process.exit(clean ? 0 : 1);
