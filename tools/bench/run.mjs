#!/usr/bin/env node
// `npx -y pnpm@12.21.0 bench`: runs every benchmark stage, each in a fresh child process under
// `node --expose-gc` (their own tables go to stderr as they run), then prints ONE table with the
// figures and issue 13's targets marked met / not met, and writes everything to
// .bench/results.json (gitignored) with the machine noted. A measuring program: it never fails on
// a number (exit 1 only if a stage crashed).
//
// Usage: node tools/bench/run.mjs [options]
//   --stages LIST      comma-separated, default all: decode,long-lines,requests,memory,effect,codegen,tsc
//   --rounds N         rounds of the decode and request stages (default 7)
//   --long-rounds N    rounds of the long-line stage (default 5)
//   --scale F          scale of the decode workloads (default 1)
//   --codegen-runs N   child processes per codegen row (default 5)
//   --quick            a smoke run: small workloads, few rounds (figures mean nothing)
//   --from FILE        measure nothing: render the table (and the README) from a results file
//   --update           measure only --stages and keep the other stages' figures from .bench/results.json
//                      (each stage's time of measurement is kept with it and shown)
//   --write-readme     replace packages/core/README.md's performance figures between the bench markers
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ROOT } from "../support/built-packages.mjs";
import { machine, stats } from "./lib.mjs";
import { renderReadmeSection, renderSummary, replaceBetweenMarkers } from "./report.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const OUT_DIR = join(ROOT, ".bench");
const README = join(ROOT, "packages", "core", "README.md");
const ALL_STAGES = ["decode", "long-lines", "requests", "memory", "effect", "codegen", "tsc"];

const { values: args } = parseArgs({
  options: {
    stages: { type: "string", default: ALL_STAGES.join(",") },
    rounds: { type: "string" },
    "long-rounds": { type: "string" },
    scale: { type: "string" },
    "codegen-runs": { type: "string" },
    quick: { type: "boolean", default: false },
    from: { type: "string" },
    update: { type: "boolean", default: false },
    "write-readme": { type: "boolean", default: false },
  },
});

const quick = args.quick;
const settings = {
  rounds: args.rounds ?? (quick ? "1" : "7"),
  longRounds: args["long-rounds"] ?? (quick ? "1" : "5"),
  scale: args.scale ?? (quick ? "0.02" : "1"),
  codegenRuns: args["codegen-runs"] ?? (quick ? "1" : "5"),
  longSizes: quick ? "1,8" : "1,8,16,32,64",
  memoryDeltas: quick ? "100000" : "1000000",
};

/** Runs a stage program with --json into .bench/, its printed output on our stderr. */
function stage(name, script, extra) {
  const file = join(OUT_DIR, `${name}.json`);
  rmSync(file, { force: true });
  process.stderr.write(`\n== ${name} ==\n`);
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--expose-gc", join(HERE, script), ...extra, "--json", file], { cwd: ROOT, stdio: ["ignore", 2, 2] });
  if (child.status !== 0) {
    process.stderr.write(`${name}: exited ${child.status ?? child.signal}\n`);
    return undefined;
  }
  const result = JSON.parse(readFileSync(file, "utf8"));
  result.stageSeconds = (performance.now() - started) / 1000;
  return result;
}

function codegen() {
  process.stderr.write("\n== codegen (tools/bench-codegen.mjs) ==\n");
  const child = spawnSync(process.execPath, [join(ROOT, "tools", "bench-codegen.mjs"), "--json", "--runs", settings.codegenRuns], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", 2],
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (child.status !== 0) return undefined;
  return JSON.parse(child.stdout);
}

/** `tsc --noEmit` (whole process) of a small consumer that imports the protocol and core, and of an empty project. */
function consumerTsc() {
  process.stderr.write("\n== tsc of a small consumer ==\n");
  const tsc = createRequire(join(ROOT, "package.json")).resolve("typescript/bin/tsc");
  const dir = join(OUT_DIR, "consumer");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const compilerOptions = {
    strict: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    lib: ["ES2022", "ESNext.Disposable"],
    noEmit: true,
    types: ["node"],
  };
  writeFileSync(join(dir, "package.json"), '{ "type": "module", "private": true }\n');
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["main.ts"] }));
  writeFileSync(join(dir, "tsconfig.empty.json"), JSON.stringify({ compilerOptions, files: ["empty.ts"] }));
  writeFileSync(
    join(dir, "main.ts"),
    [
      'import type { ServerNotification, ThreadItem } from "@codex-rpc/protocol";',
      'import { CodexClient } from "@codex-rpc/core";',
      "export function describe(n: ServerNotification): string {",
      '  return n.method === "item/agentMessage/delta" ? n.params.delta : n.method;',
      "}",
      "export const itemType = (item: ThreadItem): string => item.type;",
      "export type Client = CodexClient;",
      "",
    ].join("\n"),
  );
  writeFileSync(join(dir, "empty.ts"), "export const x = 1;\n");
  const time = (project) => {
    const start = performance.now();
    const child = spawnSync(process.execPath, [tsc, "-p", project], { cwd: dir, encoding: "utf8" });
    if (child.status !== 0) throw new Error(`tsc -p ${project} failed:\n${child.stdout}${child.stderr}`);
    return performance.now() - start;
  };
  const samples = { consumer: [], empty: [] };
  const runs = Math.max(3, Number(settings.codegenRuns));
  for (let i = 0; i < runs; i++) {
    samples.consumer.push(time("tsconfig.json"));
    samples.empty.push(time("tsconfig.empty.json"));
  }
  process.stderr.write(
    `consumer ${stats(samples.consumer).median.toFixed(0)} ms, empty project ${stats(samples.empty).median.toFixed(0)} ms (median of ${runs})\n`,
  );
  return { consumer: stats(samples.consumer), empty: stats(samples.empty), runs };
}

let results;
if (args.from) {
  results = JSON.parse(readFileSync(args.from, "utf8"));
} else {
  mkdirSync(OUT_DIR, { recursive: true });
  const stages = args.stages.split(",");
  const unknown = stages.filter((s) => !ALL_STAGES.includes(s));
  if (unknown.length > 0) {
    console.error(`unknown stages: ${unknown.join(", ")} (known: ${ALL_STAGES.join(", ")})`);
    process.exit(2);
  }
  const previous = args.update ? JSON.parse(readFileSync(join(OUT_DIR, "results.json"), "utf8")) : {};
  results = { ...previous, machine: machine(), startedAt: new Date().toISOString(), settings, quick };
  // A results file from before --update existed: its stages were all measured when it finished.
  const STAGE_KEYS = ["decode", "longLines", "requests", "memory", "effect", "codegen", "consumerTsc"];
  results.measuredAt = {
    ...Object.fromEntries(
      STAGE_KEYS.filter((key) => previous[key] !== undefined).map((key) => [key, { at: previous.finishedAt, loadAverage: previous.machine.loadAverage }]),
    ),
    ...previous.measuredAt,
  };
  let crashed = false;
  const keep = (key, value) => {
    if (value === undefined) crashed = true;
    else {
      results[key] = value;
      results.measuredAt[key] = { at: new Date().toISOString(), loadAverage: machine().loadAverage };
    }
  };
  if (stages.includes("decode")) keep("decode", stage("decode", "decode.mjs", ["--rounds", settings.rounds, "--scale", settings.scale]));
  if (stages.includes("long-lines")) keep("longLines", stage("long-lines", "long-lines.mjs", ["--rounds", settings.longRounds, "--sizes", settings.longSizes]));
  if (stages.includes("requests")) keep("requests", stage("requests", "requests.mjs", ["--rounds", settings.rounds]));
  if (stages.includes("memory")) keep("memory", stage("memory", "memory.mjs", ["--deltas", settings.memoryDeltas]));
  if (stages.includes("effect"))
    keep("effect", stage("effect", "effect.mjs", ["--rounds", settings.rounds, "--scale", settings.scale, "--deltas", quick ? "20000" : "200000"]));
  if (stages.includes("codegen")) keep("codegen", codegen());
  if (stages.includes("tsc")) {
    try {
      keep("consumerTsc", consumerTsc());
    } catch (error) {
      process.stderr.write(`${error.message}\n`);
      keep("consumerTsc", undefined);
    }
  }
  results.finishedAt = new Date().toISOString();
  writeFileSync(join(OUT_DIR, "results.json"), JSON.stringify(results, null, 2));
  process.stderr.write(`\nwrote ${join(".bench", "results.json")}\n`);
  if (crashed) process.exitCode = 1;
}

console.log(
  `\nbench: ${results.machine.cpuModel}, ${results.machine.cores} cores, node ${results.machine.node}${results.quick ? " (QUICK RUN: the figures mean nothing)" : ""}\n`,
);
console.log(renderSummary(results));
if (args["write-readme"]) {
  if (results.quick) {
    console.error("--write-readme: refusing to write a quick run's figures into the README");
    process.exit(2);
  }
  writeFileSync(README, replaceBetweenMarkers(readFileSync(README, "utf8"), renderReadmeSection(results)));
  console.error(`wrote the figures into ${README}`);
}
