#!/usr/bin/env node
// Long-line benchmark: one agent-message delta line (the fixture's shape) of 1, 8, 16, 32 and
// 64 MiB, in 64 KiB chunks one per event-loop turn; ms per MiB for the floor (JSON.parse of the
// line, already one string), the floor from bytes (the line's bytes, in one piece, decoded as
// UTF-8 and parsed: what any client reading bytes must do), our framing (NdjsonDecoder with Node's decoding) and both peers' readers
// (MCP SDK ReadBuffer; vscode-jsonrpc MessageConnection on Content-Length). A measuring program,
// not a test.
//
// Usage: node tools/bench/long-lines.mjs [--rounds N] [--sizes 1,8,16,32,64] [--peer-budget-ms MS] [--json FILE]
// A peer whose one run at a size takes longer than --peer-budget-ms (default 20 000) is measured
// once there and not at larger sizes (the MCP SDK's ReadBuffer concatenates the buffer on every
// chunk, so its time grows with the square of the line's size).
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensureGc, gc, machine, markdownTable, ours, stats } from "./lib.mjs";
import { mcpReadBuffer, PEER_VERSIONS, vscodeConnection } from "./peers.mjs";
import { chunk, deliver, loadFixture, shapesOf } from "./workloads.mjs";

const MIB = 1024 * 1024;

/** One delta line of exactly `bytes` bytes (newline not counted), ASCII text; and its JSON-RPC 2.0 form. */
export function longLine(fixture, bytes) {
  // Without the top-level emittedAtMs, which the MCP SDK's strict schema refuses.
  const { emittedAtMs: _, ...base } = shapesOf(fixture, "agent").delta;
  const frame = (delta) => JSON.stringify({ ...base, params: { ...base.params, delta } });
  const room = bytes - Buffer.byteLength(frame(""));
  const pattern = "the answer continues, line after line of it; ";
  const delta = pattern.repeat(Math.floor(room / pattern.length)).padEnd(room, "x");
  const line = frame(delta);
  if (Buffer.byteLength(line) !== bytes) throw new Error(`line of ${Buffer.byteLength(line)} bytes, wanted ${bytes}`);
  const rpcLine = `{"jsonrpc":"2.0",${line.slice(1)}`;
  const rpcBody = Buffer.from(rpcLine);
  return {
    line,
    lineBytes: Buffer.from(line),
    deltaLength: delta.length,
    chunks: chunk(Buffer.from(`${line}\n`)),
    mcpChunks: chunk(Buffer.from(`${rpcLine}\n`)),
    vscodeChunks: chunk(Buffer.concat([Buffer.from(`Content-Length: ${rpcBody.length}\r\n\r\n`), rpcBody])),
  };
}

async function stagesOf(w) {
  const { NdjsonDecoder, STDIO_DECODING } = await ours();
  return {
    floor: async () => {
      const start = performance.now();
      const message = JSON.parse(w.line);
      const elapsed = performance.now() - start;
      if (message.params.delta.length !== w.deltaLength) throw new Error("JSON.parse lost text");
      return elapsed;
    },
    floorBytes: async () => {
      const start = performance.now();
      const message = JSON.parse(w.lineBytes.toString("utf8"));
      const elapsed = performance.now() - start;
      if (message.params.delta.length !== w.deltaLength) throw new Error("JSON.parse lost text");
      return elapsed;
    },
    ours: async () => {
      let delta;
      const decoder = new NdjsonDecoder({
        ...STDIO_DECODING,
        onMessage: (message) => (delta = message.params.delta),
        onDiagnostic: (d) => {
          throw new Error(d.message);
        },
      });
      const start = performance.now();
      await deliver(w.chunks, (piece) => decoder.push(piece));
      decoder.end();
      const elapsed = performance.now() - start;
      if (delta?.length !== w.deltaLength) throw new Error("framing lost text");
      return elapsed;
    },
    mcp: async () => {
      const start = performance.now();
      const n = await mcpReadBuffer(w.mcpChunks);
      const elapsed = performance.now() - start;
      if (n !== 1) throw new Error("MCP ReadBuffer lost the line");
      return elapsed;
    },
    vscode: async () => {
      const start = performance.now();
      await vscodeConnection(w.vscodeChunks, 1, "content-length");
      return performance.now() - start;
    },
  };
}

export const LONG_LINE_STAGES = {
  floor: "floor: JSON.parse",
  floorBytes: "floor from bytes: decode + JSON.parse",
  ours: "our framing (NdjsonDecoder)",
  mcp: "MCP SDK ReadBuffer",
  vscode: "vscode-jsonrpc, Content-Length",
};

export async function measureLongLines({ rounds = 5, sizes = [1, 8, 16, 32, 64], peerBudgetMs = 20_000, log = () => {} } = {}) {
  const fixture = loadFixture();
  const rows = [];
  const skipped = new Set();
  for (const sizeMib of sizes) {
    log(` ${sizeMib} MiB`);
    const w = longLine(fixture, sizeMib * MIB);
    const run = await stagesOf(w);
    const samples = { floor: [], floorBytes: [], ours: [], mcp: [], vscode: [] };
    const once = new Set();
    for (let round = 0; round <= rounds; round++) {
      for (const stage of Object.keys(samples)) {
        if (skipped.has(stage) || (once.has(stage) && round > 0)) continue;
        gc();
        const ms = await run[stage]();
        if (ms > peerBudgetMs && (stage === "mcp" || stage === "vscode")) {
          once.add(stage);
          skipped.add(stage);
          samples[stage].push(ms);
        } else if (round > 0) samples[stage].push(ms);
      }
    }
    const row = { sizeMib };
    for (const [stage, list] of Object.entries(samples)) {
      if (list.length === 0) row[stage] = null;
      else {
        const s = stats(list);
        row[stage] = { ms: s, msPerMib: s.median / sizeMib };
      }
    }
    rows.push(row);
  }
  return { rows, skippedAfterBudget: [...skipped] };
}

export function printLongLines(result, out = console.log) {
  const cell = (x) => (x === null ? "— (over budget)" : `${x.msPerMib.toFixed(2)} ms/MiB (${x.ms.median.toFixed(0)} ms)`);
  out(
    markdownTable(
      ["line", ...Object.values(LONG_LINE_STAGES)],
      result.rows.map((row) => [`${row.sizeMib} MiB`, ...Object.keys(LONG_LINE_STAGES).map((stage) => cell(row[stage]))]),
    ),
  );
}

async function main() {
  await ensureGc(import.meta.url);
  const { values: args } = parseArgs({
    options: {
      rounds: { type: "string", default: "5" },
      sizes: { type: "string", default: "1,8,16,32,64" },
      "peer-budget-ms": { type: "string", default: "20000" },
      json: { type: "string" },
    },
  });
  const info = machine();
  const rounds = Number(args.rounds);
  console.log(
    `long-line benchmark: node ${info.node}, ${info.cores} cores (${info.cpuModel}), load ${info.loadAverage.join(" ")}; ${rounds} rounds, median; MCP SDK ${PEER_VERSIONS.mcp}, vscode-jsonrpc ${PEER_VERSIONS.vscode}`,
  );
  process.stderr.write("sizes:");
  const result = await measureLongLines({
    rounds,
    sizes: args.sizes.split(",").map(Number),
    peerBudgetMs: Number(args["peer-budget-ms"]),
    log: (text) => process.stderr.write(text),
  });
  process.stderr.write("\n");
  printLongLines(result);
  if (args.json) writeFileSync(args.json, JSON.stringify({ machine: info, rounds, peers: PEER_VERSIONS, ...result }, null, 2));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
