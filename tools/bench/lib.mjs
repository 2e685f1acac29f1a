// What the benchmark programs share: statistics, the machine description, the in-process client
// harness (CodexClient over the NDJSON transport, fed bytes by hand) and the peers' harnesses.
import os from "node:os";
import { importBuilt } from "../support/built-packages.mjs";

/** min, median, max of a list of numbers (median of an even count: the mean of the middle two). */
export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length === 0 ? Number.NaN : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { min: sorted[0], median, max: sorted.at(-1), n: sorted.length };
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model?.trim() ?? "unknown",
    cores: os.availableParallelism?.() ?? cpus.length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    loadAverage: os.loadavg().map((n) => Number(n.toFixed(2))),
  };
}

export const fmt = {
  ms: (s) => `${s.median.toFixed(1)} ms [${s.min.toFixed(1)}–${s.max.toFixed(1)}]`,
  ratio: (s) => `${s.median.toFixed(2)}× [${s.min.toFixed(2)}–${s.max.toFixed(2)}]`,
};

/** Prints `rows` (arrays of cells) as a Markdown table with padded columns. */
export function markdownTable(header, rows) {
  const all = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(3, ...all.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
  return [line(all[0]), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...all.slice(1).map(line)].join("\n");
}

/** Runs `main` again under `node --expose-gc` when gc is not exposed; returns false then. */
export async function ensureGc(scriptUrl) {
  if (typeof globalThis.gc === "function") return true;
  const { spawnSync } = await import("node:child_process");
  const { fileURLToPath } = await import("node:url");
  const rerun = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, fileURLToPath(scriptUrl), ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(rerun.status ?? 1);
}

export function gc() {
  globalThis.gc?.();
}

let built;
/** The built workspace packages the harnesses use. */
export async function ours() {
  built ??= {
    ...(await importBuilt("packages/core/dist/index.js")),
    ...(await importBuilt("packages/core/dist/transport.js")),
    ...(await importBuilt("packages/core/dist/testing.js")),
    ...(await importBuilt("packages/stdio/dist/index.js")),
    loadValidators: (await importBuilt("packages/protocol/generated/stable/validators.js")).loadValidators,
  };
  // The decoder options NodeStdioTransport runs with: Node's slicers, and a pipe's chunks kept as
  // views (a pipe never writes to a Buffer it has handed out; nor do the stages here).
  built.STDIO_DECODING ??= { ...built.nodeDecoding, retainChunks: true };
  return built;
}

export const INITIALIZE_RESULT = { userAgent: "bench/0.169.0", codexHome: "/tmp/CODEX_HOME", platformFamily: "unix", platformOs: "linux" };

/**
 * A CodexClient over the NDJSON transport whose server side is a decoder in this process: it
 * answers `initialize` and `turn/start` (with the workload's recorded turn), and the benchmark
 * feeds the server's bytes with `feed`. The thread is made by hand (`threadFor`).
 */
export async function connectedClient(w, { validate = false } = {}) {
  const { CodexClient, NdjsonDecoder, createNdjsonTransport, encodeNdjsonLine, clientInternals, STDIO_DECODING, loadValidators } = await ours();
  let sink;
  let endWith;
  const ended = new Promise((resolve) => (endWith = resolve));
  const server = new NdjsonDecoder({
    onMessage: (message) => {
      if (message.id === undefined) return;
      const results = { initialize: INITIALIZE_RESULT, "turn/start": w.shapes.turnStartResult };
      sink.data(encodeNdjsonLine({ id: message.id, result: results[message.method] ?? {} }));
    },
  });
  const transport = createNdjsonTransport({
    input: (s) => (sink = s),
    write: (bytes) => server.push(bytes),
    ...STDIO_DECODING,
    shutdown: async () => (sink.end(), endWith({ reason: "closed" }), ended),
    ended,
  });
  const client = await CodexClient.connect(transport, { validate: validate ? await loadValidators() : false, requestTimeoutMs: 600_000 });
  const thread = clientInternals(client).threadFor({ id: w.shapes.threadId, turns: [] });
  return { client, thread, feed: (bytes) => sink.data(bytes) };
}

/**
 * Subscribes to what a user of the workload's kind reads: an agent message's `text$`; a
 * command's output deltas (the turn's `events$`, filtered). Returns a counter.
 */
export function subscribeDeltas(turn, w) {
  const counter = { n: 0, chars: 0 };
  if (w.kind === "agent") {
    counter.subscription = turn.text$.subscribe((piece) => {
      counter.n++;
      counter.chars += piece.length;
    });
  } else {
    counter.subscription = turn.events$.subscribe((event) => {
      if (event.method === w.deltaMethod) {
        counter.n++;
        counter.chars += event.params.delta.length;
      }
    });
  }
  return counter;
}
