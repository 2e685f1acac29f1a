#!/usr/bin/env node
// Where a stage spends its time: runs it a few times, records the last run with the inspector's
// sampling CPU profiler (what `node --cpu-prof` records, but only around the measured run, not the
// workload's construction or the floor), and prints the frames with the most self time as a share
// of the samples that are not idle. Writes the profile for Chrome DevTools. A measuring program.
//
// Usage: node tools/bench/profile.mjs [client|client-20k|effect|effect-20k|framing|long-line] [--out FILE.cpuprofile]   (TOP=40 for more frames)
//   client     the full client → text$ on agent deltas 200 000 × 240 B (validation off)
//   client-20k the same on agent deltas 2 000 × 20 KB
//   effect     the same bytes → the Effect binding's `text` Stream run with Stream.runForEach
//   effect-20k the same on agent deltas 2 000 × 20 KB
//   framing    NdjsonDecoder alone on the same bytes
//   long-line  NdjsonDecoder on one 64 MiB line
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "node:inspector/promises";
import { parseArgs } from "node:util";
import { ROOT, importBuilt } from "../support/built-packages.mjs";
import { connectedClient, ensureGc, gc, ours, subscribeDeltas } from "./lib.mjs";
import { longLine } from "./long-lines.mjs";
import { codexWorkload, deliver, loadFixture } from "./workloads.mjs";

await ensureGc(import.meta.url);
const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: "string" } } });
const what = positionals[0] ?? "client";
const fixture = loadFixture();

async function decoderRun(chunks) {
  const { NdjsonDecoder, STDIO_DECODING } = await ours();
  const decoder = new NdjsonDecoder({ onMessage: () => {}, ...STDIO_DECODING });
  return async () => {
    await deliver(chunks, (piece) => decoder.push(piece));
    decoder.end();
  };
}

/** The full client → text$ on a codex-shaped agent workload. */
async function clientRun(w) {
  const { client, thread, feed } = await connectedClient(w);
  const turn = thread.run("bench");
  const counter = subscribeDeltas(turn, w);
  await turn.started;
  return async () => {
    await deliver(w.chunks, feed);
    await turn.completed;
    counter.subscription.unsubscribe();
    await client.close();
  };
}

const RUNS = {
  client: () => clientRun(codexWorkload(fixture, { name: "agent deltas 200 000 × 240 B", kind: "agent", count: 200_000, lineBytes: 240 })),
  "client-20k": () => clientRun(codexWorkload(fixture, { name: "agent deltas 2 000 × 20 KB", kind: "agent", count: 2_000, lineBytes: 20_000 })),
  effect: () => effectRun(codexWorkload(fixture, { name: "agent deltas 200 000 × 240 B", kind: "agent", count: 200_000, lineBytes: 240 })),
  "effect-20k": () => effectRun(codexWorkload(fixture, { name: "agent deltas 2 000 × 20 KB", kind: "agent", count: 2_000, lineBytes: 20_000 })),
  framing: () => decoderRun(codexWorkload(fixture, { name: "framing", kind: "agent", count: 200_000, lineBytes: 240 }).chunks),
  "long-line": () => decoderRun(longLine(fixture, 64 * 1024 * 1024).chunks),
};

/** The same bytes → the Effect binding's `text` Stream run with Stream.runForEach (`BINDING=dir` for another build). */
async function effectRun(w) {
  const { effectThread } = await importBuilt(`packages/${process.env.BINDING ?? "effect"}/dist/thread.js`);
  const { Effect, Exit, Fiber, Scope, Stream } = await import(join(ROOT, "packages/effect/node_modules/effect/dist/index.js"));
  const { client, thread, feed } = await connectedClient(w);
  const scope = Effect.runSync(Scope.make());
  const turn = Effect.runSync(Scope.provide(scope)(effectThread(thread).run("bench")));
  await turn.turn.started;
  let chars = 0;
  const reading = Effect.runFork(Stream.runForEach(turn.text, (piece) => Effect.sync(() => void (chars += piece.length))));
  await new Promise((resolve) => setImmediate(resolve));
  return async () => {
    await deliver(w.chunks, feed);
    await Effect.runPromise(Fiber.join(reading));
    if (chars !== w.text.length) throw new Error(`effect lost text: ${chars}/${w.text.length}`);
    await Effect.runPromise(Scope.close(scope, Exit.void));
    await client.close();
  };
}
if (!RUNS[what]) throw new Error(`unknown stage ${what}: one of ${Object.keys(RUNS).join(", ")}`);

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
let profile;
for (let round = 0; round < 4; round++) {
  const run = await RUNS[what]();
  gc();
  const last = round === 3;
  if (last) await session.post("Profiler.start");
  await run();
  if (last) ({ profile } = await session.post("Profiler.stop"));
}
if (args.out) writeFileSync(args.out, JSON.stringify(profile));

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map();
let busy = 0;
profile.samples.forEach((id, i) => {
  // The first sample's time runs from before the profiler started.
  if (i === 0) return;
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  // Idle time, and the inspector's own wait for Profiler.stop, are not the stage's.
  if (functionName === "(idle)" || functionName === "(program)" || (functionName === "dispatch" && url === "")) return;
  const where = url === "" ? "" : ` ${url.replace(/^.*\/(packages|tools)\//, "").replace("/dist/", "/")}:${lineNumber + 1}`;
  const key = `${functionName || "(anonymous)"}${where}`;
  selfTime.set(key, (selfTime.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  busy += profile.timeDeltas[i] ?? 0;
});
console.log(`${what}: top frames by self time, share of ${(busy / 1000).toFixed(0)} ms of samples that are not idle`);
for (const [frame, time] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 12)))
  console.log(`${((time / busy) * 100).toFixed(1).padStart(5)}%  ${frame}`);
