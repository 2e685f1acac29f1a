#!/usr/bin/env node
// Memory benchmark: the heap during and after ONE turn of 1 000 000 agent-message deltas of 240 B
// (the fixture's shape: item/started, deltas, item/completed with the full text, turn/completed)
// through the whole client to a text$ subscriber that counts and keeps nothing, and after the
// client closes. The bytes are made lazily, 64 KiB at a time, so the workload itself is not in
// the heap. Heap figures are heapUsed after full collections (`node --expose-gc`; the program
// re-runs itself with it). A measuring program, not a test.
//
// Usage: node tools/bench/memory.mjs [--deltas N] [--json FILE]
//
// Two turns' texts: ASCII, and typographic (one delta in 40 ends in a `’`, as model prose does: a
// string holding it takes two bytes per character in the heap). Reported for each: growth over the
// heap before the turn (after a warm-up turn) at 25/50/75/100% of the deltas, the bytes kept per
// delta (at each checkpoint, and the slope across them, which leaves out the turn's fixed state)
// beside the deltas' own text as the heap holds it (one byte per character, two in a delta with a
// `’`; what a client must keep at least if partial text is to be asked for), after the turn
// completed (its result dropped), and after close.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { connectedClient, ensureGc, machine, markdownTable, subscribeDeltas } from "./lib.mjs";
import { CHUNK_BYTES, deltaText, loadFixture, shapesOf } from "./workloads.mjs";

const LINE_BYTES = 240;
/** One delta in this many ends in a typographic apostrophe in the "typographic" text. */
const WIDE_EVERY = 40;

/** The delta texts: `room` bytes of UTF-8 each; ASCII, or one in WIDE_EVERY ending in `’` (3 bytes). */
export const TEXTS = {
  ascii: (i, room) => deltaText("agent", i, room),
  typographic: (i, room) => (i % WIDE_EVERY === WIDE_EVERY - 1 ? `${deltaText("agent", i, room - 3)}’` : deltaText("agent", i, room)),
};

/** What a delta's text takes in a JavaScript heap on its own: a byte per character, two if any is above U+00FF. */
const heapBytesOf = (text) => text.length * (/[\u0100-\uffff]/.test(text) ? 2 : 1);

/**
 * The turn's lines, lazily: turn/started, item/started, `count` deltas, item/completed,
 * turn/completed; with `{ checkpoint: n }` after the n-th delta for each n of `checkpoints`.
 */
export function* turnLines(shapes, count, checkpoints, textOf) {
  const base = shapes.delta;
  const frame = (delta, i) => JSON.stringify({ ...base, params: { ...base.params, delta }, emittedAtMs: base.emittedAtMs + i });
  const room = LINE_BYTES - Buffer.byteLength(frame("", 0));
  yield JSON.stringify(shapes.turnStarted);
  yield JSON.stringify(shapes.itemStarted);
  for (let i = 0; i < count; i++) {
    yield frame(textOf(i, room), i);
    if (checkpoints.includes(i + 1)) yield { checkpoint: i + 1 };
  }
  // The full text, made again from the same deterministic pieces, only now.
  const pieces = [];
  for (let i = 0; i < count; i++) pieces.push(textOf(i, room));
  const text = pieces.join("");
  pieces.length = 0;
  yield JSON.stringify({ ...shapes.itemCompleted, params: { ...shapes.itemCompleted.params, item: { ...shapes.itemCompleted.params.item, text } } });
  const items = shapes.turnCompleted.params.turn.items.map((item) => (item.type === "agentMessage" ? { ...item, id: shapes.itemId, text } : item));
  yield JSON.stringify({ ...shapes.turnCompleted, params: { ...shapes.turnCompleted.params, turn: { ...shapes.turnCompleted.params.turn, items } } });
}

/**
 * NDJSON bytes of `lines` in 64 KiB chunks, lines cut across chunks as a pipe cuts them; a
 * checkpoint flushes what is pending (a short chunk) and is passed on.
 */
export function* chunksOf(lines) {
  let pending = [];
  let size = 0;
  for (const line of lines) {
    if (typeof line !== "string") {
      if (size > 0) yield Buffer.concat(pending, size);
      pending = [];
      size = 0;
      yield line;
      continue;
    }
    const bytes = Buffer.from(`${line}\n`);
    pending.push(bytes);
    size += bytes.length;
    if (size >= CHUNK_BYTES) {
      const all = Buffer.concat(pending, size);
      let offset = 0;
      for (; offset + CHUNK_BYTES <= all.length; offset += CHUNK_BYTES) yield all.subarray(offset, offset + CHUNK_BYTES);
      pending = [all.subarray(offset)];
      size = all.length - offset;
    }
  }
  if (size > 0) yield Buffer.concat(pending, size);
}

export async function settledHeap() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

async function runTurn(thread, shapes, w, count, textOf, checkpoints = [], onCheckpoint = async () => {}) {
  const turn = thread.run("memory");
  const counter = subscribeDeltas(turn, w);
  await turn.started;
  for (const piece of chunksOf(turnLines(shapes, count, checkpoints, textOf))) {
    if (piece instanceof Uint8Array) w.feed(piece);
    await new Promise((resolve) => setImmediate(resolve));
    if (!(piece instanceof Uint8Array)) {
      if (counter.n !== piece.checkpoint) throw new Error(`at checkpoint ${piece.checkpoint}, ${counter.n} deltas delivered`);
      await onCheckpoint(piece.checkpoint);
    }
  }
  const done = await turn.completed;
  counter.subscription.unsubscribe();
  if (counter.n !== count) throw new Error(`lost deltas: ${counter.n}/${count}`);
  return { finalTextLength: done.finalText?.length ?? 0 };
}

/** Least-squares slope of the heap growth over the deltas at the checkpoints: bytes per further delta. */
export function slopeOf(during) {
  const n = during.length;
  const mx = during.reduce((sum, d) => sum + d.deltas, 0) / n;
  const my = during.reduce((sum, d) => sum + d.growthBytes, 0) / n;
  const sxy = during.reduce((sum, d) => sum + (d.deltas - mx) * (d.growthBytes - my), 0);
  const sxx = during.reduce((sum, d) => sum + (d.deltas - mx) ** 2, 0);
  return sxx === 0 ? undefined : sxy / sxx;
}

export async function measureMemory({ deltas = 1_000_000, text = "ascii", log = () => {} } = {}) {
  const textOf = TEXTS[text];
  const fixture = loadFixture();
  const shapes = shapesOf(fixture, "agent");
  const w = { kind: "agent", shapes, deltaMethod: "item/agentMessage/delta" };
  const { client, thread, feed } = await connectedClient(w);
  w.feed = feed;
  const room = LINE_BYTES - Buffer.byteLength(JSON.stringify({ ...shapes.delta, params: { ...shapes.delta.params, delta: "" } }));
  log(" warm-up");
  await runTurn(thread, shapes, w, 10_000, textOf);
  const before = await settledHeap();
  const during = [];
  const checkpoints = [0.25, 0.5, 0.75, 1].map((f) => Math.round(deltas * f));
  log(" turn");
  const { finalTextLength } = await runTurn(thread, shapes, w, deltas, textOf, checkpoints, async (at) => {
    const heap = await settledHeap();
    during.push({ deltas: at, growthBytes: heap - before, bytesPerDelta: (heap - before) / at });
    log(` ${at}`);
  });
  const afterTurn = await settledHeap();
  await client.close();
  const afterClose = await settledHeap();
  let textHeapBytes = 0;
  for (let i = 0; i < deltas; i++) textHeapBytes += heapBytesOf(textOf(i, room));
  return {
    text,
    deltas,
    deltaLineBytes: LINE_BYTES,
    /** The deltas' own text as the heap holds it, per delta (on average). */
    deltaTextBytes: textHeapBytes / deltas,
    textBytes: textHeapBytes,
    slopeBytesPerDelta: slopeOf(during),
    finalTextLength,
    heapBefore: before,
    during,
    afterTurnGrowthBytes: afterTurn - before,
    afterCloseGrowthBytes: afterClose - before,
  };
}

export function printMemory(result, out = console.log) {
  const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
  const text = `its text: ${result.deltaTextBytes.toFixed(1)} B`;
  const rows = result.during.map((d) => [
    `during, after ${d.deltas.toLocaleString("en")} deltas`,
    mb(d.growthBytes),
    `${d.bytesPerDelta.toFixed(1)} B per delta (${text})`,
  ]);
  rows.push(["slope across the checkpoints", "", `${result.slopeBytesPerDelta.toFixed(1)} B per further delta (${text})`]);
  rows.push(["after turn/completed (result dropped)", mb(result.afterTurnGrowthBytes), ""]);
  rows.push(["after close", mb(result.afterCloseGrowthBytes), ""]);
  out(`${result.text} text:`);
  out(markdownTable(["when", "heap growth over before the turn", "kept per delta"], rows));
}

async function main() {
  await ensureGc(import.meta.url);
  const { values: args } = parseArgs({ options: { deltas: { type: "string", default: "1000000" }, json: { type: "string" } } });
  const info = machine();
  console.log(
    `memory benchmark: node ${info.node}, one turn of ${Number(args.deltas).toLocaleString("en")} agent-message deltas of ${LINE_BYTES} B, text$ subscriber keeping nothing`,
  );
  const results = {};
  for (const text of Object.keys(TEXTS)) {
    process.stderr.write(`memory, ${text} text:`);
    results[text] = await measureMemory({ deltas: Number(args.deltas), text, log: (line) => process.stderr.write(line) });
    process.stderr.write("\n");
    printMemory(results[text]);
  }
  // The ASCII figures at the top level (what the report reads), the typographic beside them.
  if (args.json) writeFileSync(args.json, JSON.stringify({ machine: info, ...results.ascii, typographic: results.typographic }, null, 2));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
