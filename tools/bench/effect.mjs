#!/usr/bin/env node
// The Effect binding (@codex-rpc/effect) beside core: its per-message overhead over core's full
// dispatch, its bundle cost, and what a running turn keeps in the heap. A measuring program, not a
// test: it never fails on a number.
//
// Usage: node tools/bench/effect.mjs [--rounds N] [--scale F] [--deltas N] [--binding DIR] [--json FILE]
//   --rounds N     measured rounds after a warm-up round (default 7)
//   --scale F      multiply the workloads' delta counts by F
//   --deltas N     deltas of the memory turn (default 200 000)
//   --binding DIR  another build of packages/effect to measure (e.g. an older checkout's), default this one
//
// overhead   the codex-shaped agent workloads of decode.mjs (the same bytes as its client stage):
//            core's `turn.text$` subscriber (decode.mjs's client stage, validation off) and the
//            Effect `text` Stream (the deltas of one read joined into one piece) run to its end
//            with `Stream.runForEach` (by default, and with `replayEvents: false`: no events log), each timed from the first
//            byte fed to the end of the turn, in turn in each round (each round starting at
//            another stage); the ratio is the median of
//            the rounds' Effect time over core time (and, beside it, of their CPU time). For
//            information, the same Effect program by hand (a Stream.callback over core's text$, no
//            binding) over core: what Effect's Streams cost on their own.
// bundle     esbuild (bundle, minify, ESM, neutral platform) then gzip -9 of a small Effect program
//            (start a thread, run a turn, its text as a Stream, its end) written with the binding,
//            and of the same program written against core by hand (Effect.tryPromise and a
//            Stream.callback over text$); both count effect's modules they use, core and rxjs.
// memory     the heap kept by a turn still running after N deltas, nothing of it read: core's
//            CodexTurn alone, and the Effect turn (`thread.run` in a Scope, no Stream run), by default
//            and with `replayEvents: false`.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { ROOT } from "../support/built-packages.mjs";
import { client as coreClientStage } from "./decode.mjs";
import { connectedClient, ensureGc, gc, machine, markdownTable, stats } from "./lib.mjs";
import { chunksOf, settledHeap, TEXTS, turnLines } from "./memory.mjs";
import { codexWorkload, deliver, loadFixture, shapesOf, WORKLOADS } from "./workloads.mjs";

/** The binding's built entries and the `effect` it resolves (one instance for both). */
async function binding(dir) {
  const load = (file) => import(pathToFileURL(join(dir, file)).href);
  return { thread: await load("dist/thread.js"), effect: await load("node_modules/effect/dist/index.js") };
}

/**
 * The Effect binding's stage: the turn's `text` Stream run to its end, timed like core's. With
 * `byHand`, the same Effect program without the binding: a Stream.callback over core's `text$`
 * (what tells the binding's own cost from Effect's Stream machinery).
 */
async function effectStage(w, { thread: { effectThread }, effect: { Effect, Fiber, Queue, Stream } }, byHand = false, runOptions = undefined) {
  const { client, thread, feed } = await connectedClient(w);
  const counter = { n: 0, chars: 0 };
  const handMade = (turn) =>
    Stream.callback((queue) =>
      Effect.acquireRelease(
        Effect.sync(() => turn.text$.subscribe({ next: (v) => Queue.offerUnsafe(queue, v), error: () => undefined, complete: () => Queue.endUnsafe(queue) })),
        (subscription) => Effect.sync(() => subscription.unsubscribe()),
      ),
    );
  const elapsed = await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const turn = byHand ? { turn: thread.run("bench") } : yield* effectThread(thread).run("bench", runOptions);
        const text = byHand ? handMade(turn.turn) : turn.text;
        yield* Effect.promise(() => turn.turn.started);
        const start = performance.now();
        const reading = yield* Effect.forkChild(
          Stream.runForEach(text, (piece) =>
            Effect.sync(() => {
              counter.n++;
              counter.chars += piece.length;
            }),
          ),
        );
        // The Stream subscribes before the first byte, as core's subscriber does (a later run would
        // get what it missed as one piece).
        yield* Effect.yieldNow;
        yield* Effect.promise(() => deliver(w.chunks, feed));
        yield* Fiber.join(reading);
        return performance.now() - start;
      }),
    ),
  );
  // By hand, one piece per delta; the binding's text joins the deltas of one read: all the text, then.
  if (byHand ? counter.n !== w.count : counter.chars !== w.text.length)
    throw new Error(`effect lost text: ${counter.n} pieces, ${counter.chars}/${w.text.length} characters`);
  await client.close();
  return elapsed;
}

/**
 * The stage's own time, and this process's CPU time (user + system, all its threads) over the whole
 * call (connect and close included, alike for both stages): less moved by other processes on a
 * shared machine than the wall clock.
 */
async function withCpu(run) {
  const before = process.cpuUsage();
  const ms = await run();
  const used = process.cpuUsage(before);
  return [ms, (used.user + used.system) / 1000];
}

export async function measureOverhead({ rounds, scale, bindingDir, log = () => {} }) {
  const fixture = loadFixture();
  const loaded = await binding(bindingDir);
  const workloads = [];
  for (const spec of WORKLOADS.filter((s) => s.kind === "agent")) {
    const w = codexWorkload(fixture, { ...spec, count: Math.max(1, Math.round(spec.count * scale)) });
    log(`${w.name}:`);
    const samples = { coreMs: [], effectMs: [], ratio: [], cpuRatio: [], noReplayRatio: [], noReplayCpuRatio: [], byHandRatio: [], byHandCpuRatio: [] };
    const stages = [
      () => coreClientStage(w, false),
      () => effectStage(w, loaded),
      () => effectStage(w, loaded, false, { replayEvents: false }),
      () => effectStage(w, loaded, true),
    ];
    for (let round = 0; round <= rounds; round++) {
      log(round === 0 ? " warm-up" : ` ${round}`);
      // Each round starts at another stage: where a stage runs in the round moves its time by a few
      // per cent (the same stage run three times in a row differs by ±5%), which must not land on one.
      const measured = [];
      for (let i = 0; i < stages.length; i++) {
        const at = (round + i) % stages.length;
        gc();
        measured[at] = await withCpu(stages[at]);
      }
      const [[coreMs, coreCpu], [effectMs, effectCpu], [noReplayMs, noReplayCpu], [byHandMs, byHandCpu]] = measured;
      if (round === 0) continue;
      samples.coreMs.push(coreMs);
      samples.effectMs.push(effectMs);
      samples.ratio.push(effectMs / coreMs);
      samples.cpuRatio.push(effectCpu / coreCpu);
      samples.noReplayRatio.push(noReplayMs / coreMs);
      samples.noReplayCpuRatio.push(noReplayCpu / coreCpu);
      samples.byHandRatio.push(byHandMs / coreMs);
      samples.byHandCpuRatio.push(byHandCpu / coreCpu);
    }
    log("\n");
    workloads.push({
      name: w.name,
      deltas: w.count,
      coreMs: stats(samples.coreMs),
      effectMs: stats(samples.effectMs),
      ratio: stats(samples.ratio),
      cpuRatio: stats(samples.cpuRatio),
      noReplayRatio: stats(samples.noReplayRatio),
      noReplayCpuRatio: stats(samples.noReplayCpuRatio),
      byHandRatio: stats(samples.byHandRatio),
      byHandCpuRatio: stats(samples.byHandCpuRatio),
      samples,
    });
  }
  return workloads;
}

const PROGRAMS = {
  binding: `
import { Effect, Stream } from "effect";
import { CodexClient, layer } from "@binding";
export const main = (transport) =>
  Effect.gen(function* () {
    const thread = yield* (yield* CodexClient).startThread();
    const turn = yield* thread.run("hello");
    yield* Stream.runForEach(turn.text, (piece) => Effect.sync(() => console.log(piece)));
    return (yield* turn.completed).status;
  }).pipe(Effect.scoped, Effect.provide(layer(Effect.succeed(transport))), Effect.runPromise);
`,
  byHand: `
import { Effect, Queue, Stream } from "effect";
import { CodexClient } from "@codex-rpc/core";
export const main = (transport) =>
  Effect.gen(function* () {
    const client = yield* Effect.acquireRelease(Effect.tryPromise(() => CodexClient.connect(transport)), (c) => Effect.promise(() => c.close()));
    const thread = yield* Effect.tryPromise(() => client.startThread());
    const turn = thread.run("hello");
    const text = Stream.callback((queue) =>
      Effect.acquireRelease(
        Effect.sync(() => turn.text$.subscribe({ next: (v) => Queue.offerUnsafe(queue, v), error: (e) => Queue.failUnsafe(queue, e), complete: () => Queue.endUnsafe(queue) })),
        (s) => Effect.sync(() => s.unsubscribe()),
      ),
    );
    yield* Stream.runForEach(text, (piece) => Effect.sync(() => console.log(piece)));
    return (yield* Effect.tryPromise(() => turn.completed)).status;
  }).pipe(Effect.scoped, Effect.runPromise);
`,
  coreOnly: `
import { CodexClient } from "@codex-rpc/core";
export const main = async (transport) => {
  const client = await CodexClient.connect(transport);
  const turn = (await client.startThread()).run("hello");
  turn.text$.subscribe((piece) => console.log(piece));
  const { status } = await turn.completed;
  await client.close();
  return status;
};
`,
};

export function measureBundles(bindingDir) {
  const esbuild = createRequire(join(ROOT, "package.json"))("esbuild");
  const out = {};
  for (const [name, source] of Object.entries(PROGRAMS)) {
    const built = esbuild.buildSync({
      stdin: { contents: source, resolveDir: bindingDir, loader: "js" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      write: false,
      alias: { "@binding": join(bindingDir, "dist", "index.js") },
      logLevel: "error",
    });
    const code = built.outputFiles[0].contents;
    out[name] = { minBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
  }
  return out;
}

/**
 * The heap kept by a turn still running after `deltas` deltas, nothing of it read, per delta: core's
 * turn or the Effect turn, each in a fresh process (one measured after the other in one process
 * would count what the first left for the collector).
 */
export function measureKept({ deltas, bindingDir }) {
  const result = { deltas };
  for (const which of ["core", "effect", "effect-no-replay"]) {
    const child = spawnSync(
      process.execPath,
      ["--expose-gc", fileURLToPath(import.meta.url), "--kept-one", which, "--deltas", String(deltas), "--binding", bindingDir],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    if (child.status !== 0) throw new Error(`the ${which} memory run exited ${child.status ?? child.signal}`);
    result[which] = JSON.parse(child.stdout);
  }
  return result;
}

async function keptOne(which, deltas, bindingDir) {
  const { thread: bound, effect } = await binding(bindingDir);
  const { Effect, Exit, Scope } = effect;
  const shapes = shapesOf(loadFixture(), "agent");
  const { client, thread, feed } = await connectedClient({ kind: "agent", shapes, deltaMethod: "item/agentMessage/delta" });
  const scope = Effect.runSync(Scope.make());
  const before = await settledHeap();
  const turn =
    which === "core"
      ? thread.run("memory")
      : Effect.runSync(Scope.provide(scope)(bound.effectThread(thread).run("memory", which === "effect-no-replay" ? { replayEvents: false } : undefined))).turn;
  await turn.started;
  let kept;
  for (const piece of chunksOf(turnLines(shapes, deltas, [deltas], TEXTS.ascii))) {
    if (piece instanceof Uint8Array) feed(piece);
    else {
      // After the last delta, before item/completed: the turn still runs.
      const heap = await settledHeap();
      kept = { growthBytes: heap - before, bytesPerDelta: (heap - before) / deltas };
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await turn.completed;
  await Effect.runPromise(Scope.close(scope, Exit.void));
  await client.close();
  return kept;
}

async function main() {
  await ensureGc(import.meta.url);
  const { values: args } = parseArgs({
    options: {
      rounds: { type: "string", default: "7" },
      scale: { type: "string", default: "1" },
      deltas: { type: "string", default: "200000" },
      binding: { type: "string", default: join(ROOT, "packages", "effect") },
      json: { type: "string" },
      "kept-one": { type: "string" },
    },
  });
  const bindingDir = resolve(args.binding);
  if (args["kept-one"]) {
    console.log(JSON.stringify(await keptOne(args["kept-one"], Number(args.deltas), bindingDir)));
    return;
  }
  const info = machine();
  console.log(
    `effect binding benchmark: node ${info.node}, ${info.cores} cores (${info.cpuModel}), load ${info.loadAverage.join(" ")}; ${args.rounds} rounds; ${bindingDir}`,
  );
  const overhead = await measureOverhead({ rounds: Number(args.rounds), scale: Number(args.scale), bindingDir, log: (t) => process.stderr.write(t) });
  console.log(
    markdownTable(
      [
        "workload",
        "core text$, median [min–max]",
        "Effect text Stream",
        "Effect / core",
        "Effect / core, CPU time",
        "replayEvents: false / core (time, CPU)",
        "by hand / core (time, CPU)",
      ],
      overhead.map((o) => [
        o.name,
        `${o.coreMs.median.toFixed(1)} ms [${o.coreMs.min.toFixed(1)}–${o.coreMs.max.toFixed(1)}]`,
        `${o.effectMs.median.toFixed(1)} ms [${o.effectMs.min.toFixed(1)}–${o.effectMs.max.toFixed(1)}]`,
        `${o.ratio.median.toFixed(3)}× [${o.ratio.min.toFixed(3)}–${o.ratio.max.toFixed(3)}]`,
        `${o.cpuRatio.median.toFixed(3)}× [${o.cpuRatio.min.toFixed(3)}–${o.cpuRatio.max.toFixed(3)}]`,
        `${o.noReplayRatio.median.toFixed(3)}× [${o.noReplayRatio.min.toFixed(3)}–], ${o.noReplayCpuRatio.median.toFixed(3)}× [${o.noReplayCpuRatio.min.toFixed(3)}–]`,
        `${o.byHandRatio.median.toFixed(3)}×, ${o.byHandCpuRatio.median.toFixed(3)}×`,
      ]),
    ),
  );
  const bundles = measureBundles(bindingDir);
  console.log(
    markdownTable(
      ["program", "min bytes", "min+gzip bytes"],
      Object.entries(bundles).map(([k, b]) => [k, b.minBytes, b.gzipBytes]),
    ),
  );
  const kept = measureKept({ deltas: Number(args.deltas), bindingDir });
  console.log(
    markdownTable(
      ["turn still running, nothing read", `heap growth after ${kept.deltas.toLocaleString("en")} deltas`, "per delta"],
      ["core", "effect", "effect-no-replay"].map((k) => [k, `${(kept[k].growthBytes / 1e6).toFixed(2)} MB`, `${kept[k].bytesPerDelta.toFixed(1)} B`]),
    ),
  );
  if (args.json)
    writeFileSync(
      args.json,
      JSON.stringify({ machine: info, bindingDir, rounds: Number(args.rounds), scale: Number(args.scale), overhead, bundles, kept }, null, 2),
    );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
