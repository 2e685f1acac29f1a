#!/usr/bin/env node
// Decode benchmark: from bytes to a subscriber, ours and the peers', on workloads shaped like what
// codex 0.169.0 sends (workloads.mjs), all on the same bytes in the same process. A measuring
// program, not a test: it never fails on a number.
//
// Usage: node tools/bench/decode.mjs [--rounds N] [--scale F] [--only NAME] [--stages LIST] [--skip-peers] [--json FILE]
//   --rounds N    measured rounds after a warm-up round (default 7; at least 7 for figures you quote)
//   --scale F     multiply every workload's delta count by F (e.g. 0.05 for a quick check)
//   --only NAME   only the workloads whose name contains NAME
//   --stages LIST only these stages (comma-separated keys of STAGES, e.g. framing,client)
//
// Each round runs every stage once, each stage right after its own floor measurement, and the
// stage's ratio is that floor's time over the stage's time (1.0× = as fast as the floor; higher is
// faster). Rows report min–median–max over the rounds of time and of ratio.
//   floor              JSON.parse of the pre-split lines (strings made in advance), synchronous
//   floor, keeping     the same, keeping every delta string in an array (information)
//   floor from bytes   each line's bytes (views of the stream, split in advance) decoded as UTF-8 and
//                      parsed, synchronous: the least a client that reads bytes does, before any
//                      framing, routing or keeping; a bound on every client's ratio (information)
//   framing            NdjsonDecoder (@codex-rpc/core/transport) with Node's decoding, as stdio runs it;
//                      and on the delta lines alone, beside the floor of those lines
//   client → text$     CodexClient over the NDJSON transport to a subscriber of the turn's text$ (agent
//                      deltas) or of its events$ filtered to output deltas (command output), validation
//                      off and on, until `completed`
//   real pipe          the same client over NodeStdioTransport to a child process that writes the
//                      prepared NDJSON file to its stdout (timed from run() to `completed`)
//   floor (2.0)        JSON.parse of the same lines with "jsonrpc":"2.0" (what the peers are given)
//   MCP ReadBuffer     @modelcontextprotocol/sdk's stdio ReadBuffer (split + JSON.parse + zod check)
//   MCP Client         its Client (Protocol dispatch to a fallback notification handler) fed from ReadBuffer
//   vscode-jsonrpc     MessageConnection on Content-Length framing (its StreamMessageReader), and on
//                      NDJSON through a minimal reader of ours (split + JSON.parse), one star handler
// Chunked stages get 64 KiB chunks one per event-loop turn (setImmediate), as from a pipe.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { connectedClient, fmt, gc, machine, markdownTable, ours, stats, subscribeDeltas } from "./lib.mjs";
import { mcpClient, mcpReadBuffer, PEER_VERSIONS, vscodeConnection } from "./peers.mjs";
import { codexWorkload, deliver, loadFixture, syntheticWorkload, WORKLOADS } from "./workloads.mjs";

const PIPE_SERVER = fileURLToPath(new URL("./pipe-server.mjs", import.meta.url));

const FLOOR_LABELS = { floor: "JSON.parse", floor2: 'JSON.parse, "jsonrpc":"2.0" lines', floorDeltas: "JSON.parse, the delta lines" };

export const STAGES = [
  { key: "floorKeep", label: "floor, keeping every delta string (information)", floor: "floor" },
  {
    key: "floorBytes",
    label: "floor from bytes: each line's own bytes decoded, then parsed; no framing (what any client reading bytes must do; information)",
    floor: "floor",
  },
  { key: "framing", label: "our framing + parse (NdjsonDecoder)", floor: "floor" },
  { key: "framingDeltas", label: "our framing + parse, the delta lines alone (no start/completion lines)", floor: "floorDeltas" },
  { key: "framingKeep", label: "our framing + a hand-written dispatch keeping every delta string (the least a client does; information)", floor: "floor" },
  { key: "client", label: "our full client → text$ (command output: events$), validation off", floor: "floor" },
  { key: "clientValidated", label: "our full client → text$ (command output: events$), validation on", floor: "floor" },
  { key: "pipe", label: "our full client over a real pipe (NodeStdioTransport)", floor: "floor" },
  { key: "mcpReadBuffer", label: "MCP SDK ReadBuffer (split + parse + zod)", floor: "floor2", peer: true },
  { key: "mcpClient", label: "MCP SDK Client (full dispatch)", floor: "floor2", peer: true },
  { key: "vscodeContentLength", label: "vscode-jsonrpc MessageConnection, Content-Length", floor: "floor2", peer: true },
  { key: "vscodeNdjson", label: "vscode-jsonrpc MessageConnection, NDJSON reader", floor: "floor2", peer: true },
];

function floor(lines) {
  const start = performance.now();
  let n = 0;
  for (const line of lines) if (JSON.parse(line)) n++;
  const elapsed = performance.now() - start;
  if (n !== lines.length) throw new Error("floor lost lines");
  return elapsed;
}

function floorKeep(w) {
  const kept = [];
  const start = performance.now();
  for (const line of w.lines) {
    const message = JSON.parse(line);
    if (message.method === w.deltaMethod) kept.push(message.params.delta);
  }
  const elapsed = performance.now() - start;
  if (kept.length !== w.count) throw new Error("floor lost deltas");
  return elapsed;
}

/** Each line's bytes, views of the stream split in advance at its newlines (no copies). */
function lineViews(bytes) {
  const views = [];
  let start = 0;
  for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
    views.push(bytes.subarray(start, end));
    start = end + 1;
  }
  if (start < bytes.length) views.push(bytes.subarray(start));
  return views;
}

function floorBytes(views) {
  const start = performance.now();
  let n = 0;
  for (const view of views) if (JSON.parse(view.toString("utf8"))) n++;
  const elapsed = performance.now() - start;
  if (n !== views.length) throw new Error("floor from bytes lost lines");
  return elapsed;
}

async function framing({ lines, chunks }) {
  const { NdjsonDecoder, STDIO_DECODING } = await ours();
  let n = 0;
  const decoder = new NdjsonDecoder({ onMessage: () => n++, ...STDIO_DECODING });
  const start = performance.now();
  await deliver(chunks, (piece) => decoder.push(piece));
  decoder.end();
  const elapsed = performance.now() - start;
  if (n !== lines.length) throw new Error(`framing lost messages: ${n}/${lines.length}`);
  return elapsed;
}

/**
 * The framing with the least dispatch a client can do: each delta's string kept, nothing else (no
 * routing, checks, turn state or subscribers). How far any client could get on these bytes.
 */
async function framingKeep(w) {
  const { NdjsonDecoder, STDIO_DECODING } = await ours();
  const kept = [];
  const decoder = new NdjsonDecoder({
    onMessage: (message) => {
      if (message.method === w.deltaMethod) kept.push(message.params.delta);
    },
    ...STDIO_DECODING,
  });
  const start = performance.now();
  await deliver(w.chunks, (piece) => decoder.push(piece));
  decoder.end();
  const elapsed = performance.now() - start;
  if (kept.length !== w.count) throw new Error(`framing lost deltas: ${kept.length}/${w.count}`);
  return elapsed;
}

async function untilDelivered(turn, counter, w) {
  if (w.completes) await turn.completed;
  else while (counter.n < w.count) await new Promise((resolve) => setImmediate(resolve));
}

export async function client(w, validate) {
  const { client, thread, feed } = await connectedClient(w, { validate });
  const turn = thread.run("bench");
  const counter = subscribeDeltas(turn, w);
  await turn.started;
  const start = performance.now();
  await deliver(w.chunks, feed);
  await untilDelivered(turn, counter, w);
  const elapsed = performance.now() - start;
  if (counter.n !== w.count) throw new Error(`client lost deltas: ${counter.n}/${w.count}`);
  counter.subscription.unsubscribe();
  await client.close();
  return elapsed;
}

async function pipe(w, file) {
  const { CodexClient, NodeStdioTransport, clientInternals } = await ours();
  const child = spawn(process.execPath, [PIPE_SERVER, file, JSON.stringify(w.shapes.turnStartResult)], { stdio: ["pipe", "pipe", "pipe"] });
  const client = await CodexClient.connect(new NodeStdioTransport(child), { requestTimeoutMs: 600_000 });
  const thread = clientInternals(client).threadFor({ id: w.shapes.threadId, turns: [] });
  const start = performance.now();
  const turn = thread.run("bench");
  const counter = subscribeDeltas(turn, w);
  await untilDelivered(turn, counter, w);
  const elapsed = performance.now() - start;
  if (counter.n !== w.count) throw new Error(`pipe lost deltas: ${counter.n}/${w.count}`);
  counter.subscription.unsubscribe();
  await client.close();
  return elapsed;
}

async function timed(run, expected) {
  const start = performance.now();
  const n = await run();
  const elapsed = performance.now() - start;
  if (n !== expected) throw new Error(`lost messages: ${n}/${expected}`);
  return elapsed;
}

function stageRunners(w, file) {
  const rpc2 = w.rpc2;
  const total = w.lines.length;
  let views;
  return {
    floor: () => floor(w.lines),
    floor2: () => floor(rpc2.lines),
    floorDeltas: () => floor(w.deltasOnly.lines),
    floorKeep: () => floorKeep(w),
    floorBytes: () => {
      views ??= lineViews(w.bytes);
      if (views.length !== total) throw new Error(`the stream has ${views.length} lines, the workload ${total}`);
      return floorBytes(views);
    },
    framing: () => framing(w),
    framingDeltas: () => framing(w.deltasOnly),
    framingKeep: () => framingKeep(w),
    client: () => client(w, false),
    clientValidated: () => client(w, true),
    pipe: () => pipe(w, file),
    mcpReadBuffer: () => timed(() => mcpReadBuffer(rpc2.chunks), total),
    mcpClient: () => timed(() => mcpClient(rpc2.chunks, total), total),
    vscodeContentLength: () => timed(() => vscodeConnection(rpc2.contentLengthChunks, total, "content-length"), total),
    vscodeNdjson: () => timed(() => vscodeConnection(rpc2.chunks, total, "ndjson"), total),
  };
}

/** Measures one workload: per round, each stage right after its floor. */
export async function measureWorkload(w, { rounds, skipPeers = false, only, log = () => {} }) {
  const dir = mkdtempSync(join(os.tmpdir(), "codex-rpc-bench-"));
  const file = join(dir, "workload.ndjson");
  writeFileSync(file, w.bytes);
  try {
    const run = stageRunners(w, file);
    const stages = STAGES.filter((stage) => !(skipPeers && stage.peer) && (only === undefined || only.includes(stage.key)));
    const samples = Object.fromEntries(stages.map((stage) => [stage.key, { ms: [], floorMs: [], ratio: [] }]));
    for (let round = 0; round <= rounds; round++) {
      log(round === 0 ? " warm-up" : ` ${round}`);
      for (const stage of stages) {
        gc();
        const floorMs = await run[stage.floor]();
        gc();
        const ms = await run[stage.key]();
        if (round === 0) continue;
        samples[stage.key].ms.push(ms);
        samples[stage.key].floorMs.push(floorMs);
        samples[stage.key].ratio.push(floorMs / ms);
      }
    }
    const rows = {};
    for (const stage of stages) {
      const s = samples[stage.key];
      rows[stage.key] = { label: stage.label, floor: stage.floor, ms: stats(s.ms), floorMs: stats(s.floorMs), ratio: stats(s.ratio), samples: s };
    }
    return {
      name: w.name,
      kind: w.kind,
      deltas: w.count,
      deltaLineBytes: w.deltaLineBytes,
      lines: w.lines.length,
      bytes: w.bytes.length,
      chunks: w.chunks.length,
      longestLineBytes: w.lines.reduce((most, line) => Math.max(most, line.length), 0),
      rows,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printWorkload(result, out = console.log) {
  out(
    `\n${result.name}: ${result.deltas.toLocaleString("en")} deltas of ${result.deltaLineBytes} B, ${result.lines.toLocaleString("en")} lines, ${(result.bytes / 1e6).toFixed(1)} MB in ${result.chunks} chunks, longest line ${(result.longestLineBytes / 1e6).toFixed(1)} MB`,
  );
  const rows = Object.values(result.rows).map((row) => [row.label, fmt.ms(row.ms), fmt.ratio(row.ratio), FLOOR_LABELS[row.floor], fmt.ms(row.floorMs)]);
  out(markdownTable(["stage", "time, median [min–max]", "× the floor before it", "floor", "floor time"], rows));
}

async function main() {
  const { values: args } = parseArgs({
    options: {
      rounds: { type: "string", default: "7" },
      scale: { type: "string", default: "1" },
      only: { type: "string" },
      "skip-peers": { type: "boolean", default: false },
      stages: { type: "string" },
      synthetic: { type: "boolean", default: true },
      json: { type: "string" },
    },
  });
  const rounds = Number(args.rounds);
  const scale = Number(args.scale);
  const fixture = loadFixture();
  const specs = [
    ...WORKLOADS.map((spec) => ({ ...spec, build: () => codexWorkload(fixture, { ...spec, count: Math.max(1, Math.round(spec.count * scale)) }) })),
    { name: "synthetic (old bench:decode, no item/started)", build: () => syntheticWorkload(fixture, Math.max(1, Math.round(200_000 * scale))) },
  ].filter((spec) => args.only === undefined || spec.name.includes(args.only));
  const info = machine();
  console.log(
    `decode benchmark: node ${info.node}, ${info.cores} cores (${info.cpuModel}), load ${info.loadAverage.join(" ")}; ${rounds} rounds; MCP SDK ${PEER_VERSIONS.mcp}, vscode-jsonrpc ${PEER_VERSIONS.vscode}`,
  );
  const results = [];
  for (const spec of specs) {
    // One workload in memory at a time.
    const w = spec.build();
    process.stderr.write(`${w.name}:`);
    const result = await measureWorkload(w, {
      rounds,
      skipPeers: args["skip-peers"],
      only: args.stages?.split(","),
      log: (text) => process.stderr.write(text),
    });
    process.stderr.write("\n");
    printWorkload(result);
    results.push(result);
  }
  if (args.json) writeFileSync(args.json, JSON.stringify({ machine: info, rounds, scale, peers: PEER_VERSIONS, workloads: results }, null, 2));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
