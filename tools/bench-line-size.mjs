#!/usr/bin/env node
// Long-line benchmark for the NDJSON framing: one line of 8, 16, 32 and 64 MiB (a delta
// notification with one long string), pushed through NdjsonDecoder in 64 KiB chunks, as a pipe
// delivers it. Linear means each size takes about its size over 8 MiB times the 8 MiB time (2×, 4×,
// 8×); the floor is JSON.parse of the same line, already one string, measured in the same run.
// A measuring program, not a test: it never fails on a number.
//
// Usage: node tools/bench-line-size.mjs [--rounds N]     (root script: `pnpm bench:line-size`)
//
// Two texts: ASCII (the framing keeps the partial line as text) and non-ASCII (one character in
// four takes 2 or 3 bytes: the byte path, with characters cut across chunks). Two decoders: Node's
// slicers and ASCII check as @codex-rpc/stdio passes them, and the portable TextDecoder default
// (Deno, browsers; information). Stages run interleaved once per round (default 5 after a warm-up
// round) with a full GC before each; times are medians.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { importBuilt } from "./support/built-packages.mjs";
import os from "node:os";

if (typeof globalThis.gc !== "function") {
  // A collection of the previous stage's 64 MiB inside the next one's timing would be noise.
  const rerun = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exit(rerun.status ?? 1);
}

const { NdjsonDecoder } = await importBuilt("packages/core/dist/transport.js");
const { nodeDecoding } = await importBuilt("packages/stdio/dist/index.js");

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const rounds = Number(args.rounds);
const MIB = 1024 * 1024;
const SIZES_MIB = [8, 16, 32, 64];
const CHUNK = 64 * 1024;

const NODE_SLICERS = nodeDecoding;

const TEXTS = {
  ASCII: "the answer continues, line after line of it; ",
  "non-ASCII": "l’answer — ünïcödé, ça va; ",
};

/** One delta notification of exactly `bytes` bytes of UTF-8 (its newline not counted). */
function lineOfSize(bytes, pattern) {
  const frame = (delta) =>
    JSON.stringify({ method: "item/agentMessage/delta", params: { threadId: "t", turnId: "u", itemId: "m", delta }, emittedAtMs: 1763800000000 });
  const room = bytes - Buffer.byteLength(frame(""));
  const patternBytes = Buffer.byteLength(pattern);
  const body = pattern.repeat(Math.floor(room / patternBytes));
  const delta = body + "x".repeat(room - Buffer.byteLength(body));
  const line = frame(delta);
  if (Buffer.byteLength(line) !== bytes) throw new Error(`line of ${Buffer.byteLength(line)} bytes, wanted ${bytes}`);
  return { line, deltaLength: delta.length };
}

function workload(sizeMib, pattern) {
  const { line, deltaLength } = lineOfSize(sizeMib * MIB, pattern);
  const bytes = Buffer.from(`${line}\n`);
  const chunks = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK) chunks.push(bytes.subarray(offset, offset + CHUNK));
  return { sizeMib, line, deltaLength, chunks };
}

function floor(w) {
  globalThis.gc();
  const start = performance.now();
  const message = JSON.parse(w.line);
  const elapsed = performance.now() - start;
  if (message.params.delta.length !== w.deltaLength) throw new Error("JSON.parse lost text");
  return elapsed;
}

function framing(w, slicers) {
  let delta;
  const decoder = new NdjsonDecoder({
    ...slicers,
    onMessage: (message) => (delta = message.params.delta),
    onDiagnostic: (d) => {
      throw new Error(d.message);
    },
  });
  globalThis.gc();
  const start = performance.now();
  for (const chunk of w.chunks) decoder.push(chunk);
  decoder.end();
  const elapsed = performance.now() - start;
  if (delta?.length !== w.deltaLength) throw new Error(`framing lost text: ${delta?.length} of ${w.deltaLength} characters`);
  return elapsed;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`long-line benchmark: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), ${rounds} rounds, median, 64 KiB chunks`);
for (const [textName, pattern] of Object.entries(TEXTS)) {
  const rows = [];
  for (const sizeMib of SIZES_MIB) {
    // One size at a time, so the other lines are not in the heap while this one is measured.
    const w = workload(sizeMib, pattern);
    const times = { floor: [], node: [], portable: [] };
    for (let round = 0; round <= rounds; round++) {
      const measured = { floor: floor(w), node: framing(w, NODE_SLICERS), portable: framing(w, {}) };
      if (round > 0) for (const [stage, ms] of Object.entries(measured)) times[stage].push(ms);
    }
    rows.push({ sizeMib, chunks: w.chunks.length, ...Object.fromEntries(Object.entries(times).map(([stage, ms]) => [stage, median(ms)])) });
  }
  const base = rows[0];
  const cell = (text, width) => text.padStart(width);
  console.log(`\n${textName} line (${JSON.stringify(pattern)} repeated), ${rows.map((row) => row.chunks).join(" / ")} chunks`);
  console.log(`  size (linear)      framing (Node)  vs 8 MiB    JSON.parse  vs 8 MiB   framing / JSON.parse   portable framing  vs 8 MiB`);
  for (const row of rows) {
    const size = `${row.sizeMib} MiB (${row.sizeMib / base.sizeMib}x)`;
    console.log(
      `  ${size.padEnd(16)} ${cell(`${row.node.toFixed(1)} ms`, 16)} ${cell(`${(row.node / base.node).toFixed(2)}x`, 9)} ${cell(`${row.floor.toFixed(1)} ms`, 13)} ${cell(`${(row.floor / base.floor).toFixed(2)}x`, 9)} ${cell(`${(row.node / row.floor).toFixed(2)}x`, 22)} ${cell(`${row.portable.toFixed(1)} ms`, 18)} ${cell(`${(row.portable / base.portable).toFixed(2)}x`, 9)}`,
    );
  }
}
