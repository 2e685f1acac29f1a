#!/usr/bin/env node
// Decode benchmark for @codex-rpc/core: how fast messages get from bytes to a subscriber, against
// the floor of JSON.parse on the same lines already split into strings, measured in the same run.
// A measuring program, not a test: it never fails on a number.
//
// Usage: node tools/bench-decode.mjs [--rounds N]     (root script: `pnpm bench:decode`)
//
// Workloads: 200 000 `item/agentMessage/delta` notifications (~240 B each; again with non-ASCII
// text in one delta in 20 and in every delta, for information) and 2 000 messages of
// ~20 KB (`item/commandExecution/outputDelta` with a long delta), as NDJSON bytes cut into 64 KiB
// chunks (what a pipe delivers). Stages, each timed from the first chunk to the last message:
//   floor        JSON.parse of every pre-split line (strings made in advance)
//   framing      NdjsonDecoder over the chunks (split, decode, parse) with Node's ASCII check and
//                slicers, as @codex-rpc/stdio runs it; and with the portable TextDecoder default
//   decode only  (information) the bytes → strings step alone, as a share of the floor
//   bare         (information) decode, split and parse with no checks at all: the ceiling any
//                splitter can reach on this machine
//   dispatch     the whole client: NDJSON transport → JsonRpcConnection → CodexClient → a Turn's
//                text$ subscriber (the 20 KB workload: a notifications() subscriber)
//   validated    the same with `validate: true` (generated validators on every message's params)
// Stages run interleaved, once per round (default 7 rounds after a warm-up round); times are
// medians, ratios the medians of per-round ratios.
import { parseArgs } from "node:util";
import { importBuilt } from "./support/built-packages.mjs";
import os from "node:os";

const { CodexClient } = await importBuilt("packages/core/dist/index.js");
const { NdjsonDecoder, createNdjsonTransport, encodeNdjsonLine } = await importBuilt("packages/core/dist/transport.js");
const { clientInternals } = await importBuilt("packages/core/dist/testing.js");
const { nodeDecoding } = await importBuilt("packages/stdio/dist/index.js");
const { loadValidators } = await importBuilt("packages/protocol/generated/stable/validators.js");

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "7" } } });
const rounds = Number(args.rounds);
const CHUNK = 64 * 1024;
const THREAD = "019a0000-0000-7000-8000-000000000001";
const TURN = "019a0000-0000-7000-8000-000000000002";
const ITEM = "msg_0123456789abcdef0123456789abcdef";

function deltaLine(i) {
  // ~240 bytes: a few words of English, as most deltas are.
  const delta = ` the answer, part ${i}, continues`;
  return JSON.stringify({ method: "item/agentMessage/delta", params: { threadId: THREAD, turnId: TURN, itemId: ITEM, delta }, emittedAtMs: 1763800000000 + i });
}

function mixedDeltaLine(i) {
  // Mostly English, with the odd curly quote or dash, as model output is: one delta in 20.
  return i % 20 === 0 ? nonAsciiDeltaLine(i) : deltaLine(i);
}

function nonAsciiDeltaLine(i) {
  // The same with non-ASCII in every delta: decoded lines become two-byte strings.
  const delta = ` l’answer — part ${i}, ünïcödé`;
  return JSON.stringify({ method: "item/agentMessage/delta", params: { threadId: THREAD, turnId: TURN, itemId: ITEM, delta }, emittedAtMs: 1763800000000 + i });
}

const { decodeUtf8, isAscii, decodeAscii } = nodeDecoding;

function bigLine(i) {
  const delta = `${"drwxr-xr-x  2 user staff   4096 Nov 22 16:00 some-directory-name\n".repeat(320)}${i}`.slice(0, 20_000);
  return JSON.stringify({
    method: "item/commandExecution/outputDelta",
    params: { threadId: THREAD, turnId: TURN, itemId: "cmd_1", delta },
    emittedAtMs: 1763800000000 + i,
  });
}

function workload(name, count, makeLine) {
  const lines = Array.from({ length: count }, (_, i) => makeLine(i));
  const bytes = Buffer.from(`${lines.join("\n")}\n`);
  const chunks = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK) chunks.push(bytes.subarray(offset, offset + CHUNK));
  return { name, count, lines, chunks, bytes: bytes.length, avgBytes: Math.round(bytes.length / count) };
}

function floor(w) {
  const start = performance.now();
  let n = 0;
  for (const line of w.lines) if (JSON.parse(line)) n++;
  if (n !== w.count) throw new Error("floor lost messages");
  return performance.now() - start;
}

function framing(w, portable = false) {
  let n = 0;
  const decoder = new NdjsonDecoder({ onMessage: () => n++, ...(portable ? {} : { decodeUtf8, isAscii, decodeAscii }) });
  const start = performance.now();
  for (const chunk of w.chunks) decoder.push(chunk);
  decoder.end();
  if (n !== w.count) throw new Error(`framing lost messages: ${n}/${w.count}`);
  return performance.now() - start;
}

/** Only the bytes → string step, chunk by chunk (Node's ASCII check and Latin-1 copy): what any
 * splitter must pay before it can call JSON.parse. */
function decodeOnly(w) {
  const start = performance.now();
  let chars = 0;
  for (const chunk of w.chunks) chars += (isAscii(chunk, 0, chunk.length) ? decodeAscii : decodeUtf8)(chunk, 0, chunk.length).length;
  if (chars === 0) throw new Error("decoded nothing");
  return performance.now() - start;
}

/** The least a chunked splitter can do: decode, split, parse; no line cap, CR, diagnostics or error
 * isolation. Not a product path: it shows the ceiling on this machine for the framing ratio. */
function bareSplitter(w) {
  let n = 0;
  let partial = "";
  const start = performance.now();
  for (const chunk of w.chunks) {
    const lines = (isAscii(chunk, 0, chunk.length) ? decodeAscii : decodeUtf8)(chunk, 0, chunk.length).split("\n");
    lines[0] = partial + lines[0];
    partial = lines.pop();
    for (const line of lines) if (JSON.parse(line)) n++;
  }
  if (n !== w.count) throw new Error(`bare splitter lost messages: ${n}/${w.count}`);
  return performance.now() - start;
}

/** A client connected to an in-process server that answers the handshake, thread and turn start. */
async function connectedTurn(validate) {
  let sink;
  let endWith;
  const ended = new Promise((r) => (endWith = r));
  const decoder = new NdjsonDecoder({
    onMessage: (message) => {
      if (message.id === undefined) return;
      const results = {
        initialize: { userAgent: "bench", codexHome: "/tmp", platformFamily: "unix", platformOs: "linux" },
        "turn/start": {
          turn: {
            id: TURN,
            status: "inProgress",
            items: [],
            error: null,
            startedAt: null,
            completedAt: null,
            durationMs: null,
            itemsView: "notLoaded",
            rootTurnId: null,
          },
        },
      };
      sink.data(encodeNdjsonLine({ id: message.id, result: results[message.method] ?? {} }));
    },
  });
  const transport = createNdjsonTransport({
    input: (s) => (sink = s),
    write: (bytes) => decoder.push(bytes),
    decodeUtf8,
    isAscii,
    decodeAscii,
    shutdown: async () => (sink.end(), endWith({ reason: "closed" }), ended),
    ended,
  });
  const client = await CodexClient.connect(transport, { validate: validate ? await loadValidators() : false, requestTimeoutMs: 600_000 });
  // The thread is made by hand: the benchmark is about notifications, not thread/start.
  const thread = clientInternals(client).threadFor({ id: THREAD, turns: [] });
  return { client, thread, feed: (chunk) => sink.data(chunk) };
}

async function dispatch(w, validate) {
  const { client, thread, feed } = await connectedTurn(validate);
  let n = 0;
  let subscription;
  if (w.name.startsWith("delta")) {
    const turn = thread.run("bench");
    await turn.started;
    subscription = turn.text$.subscribe(() => n++);
  } else {
    subscription = client.notifications("item/commandExecution/outputDelta").subscribe(() => n++);
  }
  const start = performance.now();
  for (const chunk of w.chunks) feed(chunk);
  const elapsed = performance.now() - start;
  if (n !== w.count) throw new Error(`dispatch lost messages: ${n}/${w.count}`);
  subscription.unsubscribe();
  await client.close();
  return elapsed;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Runs every stage once per round, interleaved, after a warm-up round; figures are medians over
 * rounds and each ratio is the median of the per-round ratios, so drift on a shared machine hits
 * both sides of a ratio alike.
 */
async function measureRounds(stages) {
  const times = Object.fromEntries(Object.keys(stages).map((name) => [name, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const [name, run] of Object.entries(stages)) {
      const ms = await run();
      if (round > 0) times[name].push(ms);
    }
  }
  return times;
}

console.log(`decode benchmark: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), ${rounds} rounds, median`);
const results = {};
// Each workload is built when its turn comes, so one workload's data never sits in the heap
// (and in every garbage collection) while another is measured.
for (const makeWorkload of [
  () => workload("deltas (~240 B)", 200_000, deltaLine),
  () => workload("deltas, one in 20 with non-ASCII text (information)", 200_000, mixedDeltaLine),
  () => workload("deltas, every one with non-ASCII text (information)", 200_000, nonAsciiDeltaLine),
  () => workload("20 KB messages", 2_000, bigLine),
]) {
  const w = makeWorkload();
  const times = await measureRounds({
    floor: () => floor(w),
    framing: () => framing(w),
    portable: () => framing(w, true),
    decodeOnly: () => decodeOnly(w),
    bare: () => bareSplitter(w),
    dispatch: () => dispatch(w, false),
    validated: () => dispatch(w, true),
  });
  const ratio = (a, b) => median(times[a].map((x, i) => x / times[b][i]));
  const [floorMs, framingMs, portableMs, dispatchMs, validatedMs] = ["floor", "framing", "portable", "dispatch", "validated"].map((k) => median(times[k]));
  const rate = (ms) => Math.round(w.count / (ms / 1000));
  // The targets apply to the ASCII deltas and the 20 KB messages; the rest is information.
  const target = (text) => (w.name.includes("(information)") ? "" : ` (target ${text})`);
  console.log(`\n${w.name}: ${w.count} messages, ${w.avgBytes} B on average, ${(w.bytes / 1e6).toFixed(1)} MB in ${w.chunks.length} chunks`);
  console.log(`  floor: JSON.parse of pre-split lines   ${floorMs.toFixed(1).padStart(8)} ms  ${rate(floorMs).toLocaleString("en").padStart(11)} msg/s`);
  console.log(
    `  framing + parse                        ${framingMs.toFixed(1).padStart(8)} ms  ${rate(framingMs).toLocaleString("en").padStart(11)} msg/s  ${ratio("floor", "framing").toFixed(2)}x the floor${target(">= 0.85x")}`,
  );
  console.log(
    `  framing + parse, TextDecoder (Deno, browsers) ${portableMs.toFixed(1).padStart(0)} ms  ${rate(portableMs).toLocaleString("en")} msg/s  ${ratio("floor", "portable").toFixed(2)}x the floor (information)`,
  );
  console.log(
    `  bytes → strings only: ${(ratio("decodeOnly", "floor") * 100).toFixed(0)}% of the floor's time; a bare splitter (no checks) ${ratio("floor", "bare").toFixed(2)}x the floor (information: the ceiling here)`,
  );
  console.log(
    `  full dispatch (client → subscriber)    ${dispatchMs.toFixed(1).padStart(8)} ms  ${rate(dispatchMs).toLocaleString("en").padStart(11)} msg/s  ${ratio("floor", "dispatch").toFixed(2)}x the floor${target(">= 0.6x")}`,
  );
  console.log(
    `  full dispatch, params validated        ${validatedMs.toFixed(1).padStart(8)} ms  ${rate(validatedMs).toLocaleString("en").padStart(11)} msg/s  ${ratio("validated", "dispatch").toFixed(2)}x the cost without${target("<= 1.15x")}`,
  );
  results[w.name] = { floorMs, framingMs, portableMs, dispatchMs, validatedMs };
}
