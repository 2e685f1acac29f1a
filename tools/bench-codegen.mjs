#!/usr/bin/env node
// Benchmarks @codex-rpc/codegen against json-schema-to-typescript, and the load time of the
// generated validators entry. A measuring program, not a test: it never fails on a number.
//
// Usage: node tools/bench-codegen.mjs [--runs N] [--json]     (root script: `pnpm bench:codegen`; also a stage of `pnpm bench`)
//   --runs N   fresh child processes per measurement (default 5); medians are reported
//   --json     print a JSON object of the figures on stdout (the text report then goes to stderr)
//
// What is measured, on the same schema set (both bundles, stable + experimental):
//   1. ours, types + maps   generate({ include: ["types"] })       (types.d.ts, methods.*, index.*)
//   2. ours, validators     generate({ include: ["validators"] })  (standalone ajv modules)
//   3. json-schema-to-typescript 16.0.0, compile() of each bundle (see JSTT_OPTIONS for the configuration)
//   4. `await import()` of packages/protocol/generated/stable/validators.js (the entry: loaders only),
//      against a tiny module; and, for information, the incoming chunk alone and loadValidators()
//      (every chunk), which is what a client that validates pays once
// Every repetition of every row runs in its own fresh child process (this file, `--child <task>`),
// so the peak RSS (process.resourceUsage().maxRSS) is that row's alone. Rows are interleaved
// round by round, so slow drift of the machine affects all of them alike.
//
// Times: "run" is the measured call alone (performance.now() around it, in the child); "import" is
// loading the tool's modules first (our emitter and printer, plus ajv for validators; prettier + ref-parser + lodash for
// json-schema-to-typescript); "process" is the child from spawn to exit, as seen by this parent.
// Profile one run of ours with e.g. `node --cpu-prof tools/bench-codegen.mjs --child ours-types`.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = resolve(dirname(SCRIPT), "..");
const SCHEMAS_DIR = "schemas/codex/0.169.0"; // relative to ROOT, as the root scripts pass it
const FLAVORS = ["stable", "experimental"];
const BUNDLE_FILE = "codex_app_server_protocol.schemas.json";
const CODEGEN_DIR = join(ROOT, "packages", "codegen");
const CODEGEN_ENTRY = join(CODEGEN_DIR, "dist", "index.js");
const VALIDATORS_ENTRY = join(ROOT, "packages", "protocol", "generated", "stable", "validators.js");
const VALIDATORS_INCOMING = join(ROOT, "packages", "protocol", "generated", "stable", "validators", "incoming.js");
const JSTT_VERSION = "16.0.0";
const TARGET_TYPES_RATIO = 0.5;
const TARGET_LOAD_MS = 20;

// json-schema-to-typescript configuration. Chosen to be the *fastest* configuration that still does
// the same job as ours, so that the comparison is, if anything, in its favour:
// - unreachableDefinitions: true — emit every definition, not only those reachable from the root
//   (the root schema of a bundle is an empty object type, so without it almost nothing is emitted).
// - format: false — skip the prettier pass. Its README: "Set this to false to improve performance";
//   it still prints indented, readable declarations, and ours runs no formatter either (its own
//   printer writes the layout directly). The default (format: true) is also measured, for information
//   only (row "format: true"): it is not what the target is judged against.
// - bannerComment: "" — no banner (ours writes a three-line header; either is negligible).
// - everything else at its defaults (additionalProperties, unknownAny, strictIndexSignatures, …):
//   they change what is printed, not how much work is done.
// Input: the bundle as codex exports it, plus — because json-schema-to-typescript emits only the
// top-level `definitions` (it turns `definitions.v2` into one opaque `interface V2 { [k: string]:
// unknown }` and drops every v2 definition nothing refers to) — one alias per v2 definition,
// `definitions[Name] = { $ref: "#/definitions/v2/Name" }` (`v2_Name` for the few names v1 also
// uses). The child checks afterwards that every v1 and v2 definition was emitted, and says so.
const JSTT_OPTIONS = { unreachableDefinitions: true, format: false, bannerComment: "" };

const TASKS = {
  "ours-types": { label: "ours: types + method maps", kind: "gen" },
  "ours-validators": { label: "ours: validators", kind: "gen" },
  jstt: { label: `json-schema-to-typescript ${JSTT_VERSION}`, kind: "gen" },
  "jstt-format": { label: `  (same, format: true; information only)`, kind: "gen" },
  baseline: { label: "node baseline (empty child)", kind: "gen" },
  "load-validators": { label: "import validators.js", kind: "load" },
  "load-incoming": { label: "import validators/incoming.js", kind: "load" },
  "load-all": { label: "import validators.js + loadValidators()", kind: "load" },
  "load-tiny": { label: "import tiny module (baseline)", kind: "load" },
};

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    json: { type: "boolean", default: false },
    child: { type: "string" },
    module: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  allowPositionals: false,
});

if (args.child !== undefined) {
  await runChild(args.child);
} else if (args.help) {
  console.log(
    readFileSync(SCRIPT, "utf8")
      .split("\n")
      .slice(1, 8)
      .map((l) => l.replace(/^\/\/ ?/, ""))
      .join("\n"),
  );
} else {
  await main();
}

// ---------------------------------------------------------------------------------------------
// Child: one measurement, printed as a JSON line on stdout.

async function runChild(task) {
  process.chdir(ROOT);
  let result;
  switch (task) {
    case "ours-types":
    case "ours-validators": {
      const t0 = performance.now();
      const { generate } = await import(pathToFileURL(CODEGEN_ENTRY).href);
      const t1 = performance.now();
      const include = task === "ours-types" ? ["types"] : ["validators"];
      const generated = generate({ schemasDir: SCHEMAS_DIR, command: "bench", include });
      const t2 = performance.now();
      let outputChars = 0;
      for (const content of generated.files.values()) outputChars += content.length;
      result = { importMs: t1 - t0, runMs: t2 - t1, outputChars, outputFiles: generated.files.size };
      break;
    }
    case "jstt":
    case "jstt-format": {
      const t0 = performance.now();
      const jstt = await import("json-schema-to-typescript");
      const compile = jstt.compile ?? jstt.default.compile;
      const t1 = performance.now();
      const options = task === "jstt" ? JSTT_OPTIONS : { ...JSTT_OPTIONS, format: true };
      const outputs = [];
      const expected = [];
      for (const flavor of FLAVORS) {
        // Reading and parsing the bundle is inside the timed part, as it is inside generate().
        const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, flavor, BUNDLE_FILE), "utf8"));
        expected.push(aliasV2Definitions(schema));
        outputs.push(await compile(schema, "CodexAppServerProtocol", options));
      }
      const t2 = performance.now();
      // Outside the timing: did it emit every definition? It marks each top-level definition it
      // declares with "via the `definition` "<key>"" (aliases included, so each v2 one counts).
      let emitted = 0;
      let total = 0;
      outputs.forEach((output, i) => {
        const seen = new Set(Array.from(output.matchAll(/via the `definition` "([^"]+)"/g), (m) => m[1]));
        total += expected[i].length;
        emitted += expected[i].filter((key) => seen.has(key)).length;
      });
      const outputChars = outputs.reduce((n, s) => n + s.length, 0);
      result = { importMs: t1 - t0, runMs: t2 - t1, outputChars, outputFiles: outputs.length, definitionsEmitted: emitted, definitionsTotal: total };
      break;
    }
    case "baseline":
      result = { importMs: 0, runMs: 0, outputChars: 0, outputFiles: 0 };
      break;
    case "load-validators":
    case "load-incoming":
    case "load-all":
    case "load-tiny": {
      const url = pathToFileURL(args.module ?? "").href;
      const t0 = performance.now();
      const loaded = await import(url);
      if (task === "load-all") await loaded.loadValidators();
      const t1 = performance.now();
      result = { loadMs: t1 - t0 };
      break;
    }
    default:
      throw new Error(`unknown child task ${task}`);
  }
  process.stdout.write(`${JSON.stringify({ task, ...result, maxRssKiB: process.resourceUsage().maxRSS })}\n`);
}

/** Adds a top-level alias for every `definitions.v2` entry; returns the keys that must be emitted. */
function aliasV2Definitions(schema) {
  const definitions = schema.definitions;
  const v2 = definitions.v2 ?? {};
  const keys = Object.keys(definitions).filter((key) => key !== "v2");
  for (const name of Object.keys(v2)) {
    const key = name in definitions ? `v2_${name}` : name;
    definitions[key] = { $ref: `#/definitions/v2/${name.replaceAll("~", "~0").replaceAll("/", "~1")}` };
    keys.push(key);
  }
  return keys;
}

// ---------------------------------------------------------------------------------------------
// Parent.

async function main() {
  const runs = Number(args.runs);
  if (!Number.isInteger(runs) || runs < 1) fail(`--runs must be a positive integer, got ${args.runs}`);
  const out = args.json ? (line = "") => process.stderr.write(`${line}\n`) : (line = "") => process.stdout.write(`${line}\n`);
  const progress = (text) => process.stderr.write(text);

  ensureCodegenBuilt();
  for (const flavor of FLAVORS) {
    const file = join(ROOT, SCHEMAS_DIR, flavor, BUNDLE_FILE);
    if (!existsSync(file)) fail(`missing schema bundle ${relative(ROOT, file)}`);
  }
  const jsttPackage = join(ROOT, "node_modules", "json-schema-to-typescript", "package.json");
  const jsttVersion = existsSync(jsttPackage) ? JSON.parse(readFileSync(jsttPackage, "utf8")).version : undefined;
  if (jsttVersion === undefined) fail("json-schema-to-typescript is not installed: run `npx -y pnpm@12.21.0 install`");
  const haveValidators = existsSync(VALIDATORS_ENTRY);

  const tmp = mkdtempSync(join(os.tmpdir(), "bench-codegen-"));
  const tinyModule = join(tmp, "tiny.mjs");
  writeFileSync(tinyModule, "export const tiny = 1;\n");

  const taskList = ["ours-types", "ours-validators", "jstt", "jstt-format", "baseline"];
  if (haveValidators) taskList.push("load-validators", "load-incoming", "load-all", "load-tiny");
  const samples = Object.fromEntries(taskList.map((task) => [task, []]));
  try {
    for (let round = 1; round <= runs; round++) {
      progress(`round ${round}/${runs}:`);
      for (const task of taskList) {
        progress(` ${task}`);
        const module = {
          "load-validators": VALIDATORS_ENTRY,
          "load-incoming": VALIDATORS_INCOMING,
          "load-all": VALIDATORS_ENTRY,
          "load-tiny": tinyModule,
        }[task];
        samples[task].push(spawnChild(task, module));
      }
      progress("\n");
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }

  // Figures.
  const mib = (kib) => kib / 1024;
  const summary = {};
  for (const task of taskList) {
    const list = samples[task];
    const stat = (key) => stats(list.map((s) => s[key]));
    summary[task] =
      TASKS[task].kind === "gen"
        ? {
            runMs: stat("runMs"),
            importMs: stat("importMs"),
            processMs: stat("processMs"),
            maxRssMiB: stats(list.map((s) => mib(s.maxRssKiB))),
            outputChars: list[0].outputChars,
            outputFiles: list[0].outputFiles,
            ...(list[0].definitionsTotal !== undefined && {
              definitionsEmitted: Math.min(...list.map((s) => s.definitionsEmitted)),
              definitionsTotal: list[0].definitionsTotal,
            }),
          }
        : { loadMs: stat("loadMs"), processMs: stat("processMs"), maxRssMiB: stats(list.map((s) => mib(s.maxRssKiB))) };
  }
  const ours = summary["ours-types"];
  const jstt = summary.jstt;
  const ratios = {
    runTime: ours.runMs.median / jstt.runMs.median,
    timeWithImport: (ours.runMs.median + ours.importMs.median) / (jstt.runMs.median + jstt.importMs.median),
    processTime: ours.processMs.median / jstt.processMs.median,
    peakRss: ours.maxRssMiB.median / jstt.maxRssMiB.median,
    // What each tool adds to the same empty Node process (measured in this run): the 43 MiB that
    // every child starts with would otherwise pull every memory ratio towards 1.
    peakRssAboveNode: (ours.maxRssMiB.median - summary.baseline.maxRssMiB.median) / (jstt.maxRssMiB.median - summary.baseline.maxRssMiB.median),
  };
  const typesTarget = {
    target: `types+maps <= ${TARGET_TYPES_RATIO}x json-schema-to-typescript (time of the call; peak RSS above an empty node process)`,
    timeMet: ratios.runTime <= TARGET_TYPES_RATIO,
    memoryMet: ratios.peakRssAboveNode <= TARGET_TYPES_RATIO,
  };
  typesTarget.met = typesTarget.timeMet && typesTarget.memoryMet;

  // Text report.
  const cpus = os.cpus();
  const schemaBytes = FLAVORS.reduce((n, f) => n + statSync(join(ROOT, SCHEMAS_DIR, f, BUNDLE_FILE)).size, 0);
  const machine = {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpuCount: os.availableParallelism?.() ?? cpus.length,
    cpuModel: cpus[0]?.model?.trim() ?? "unknown",
    memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
  };
  out(`codegen benchmark: node ${machine.node}, ${machine.platform}, ${machine.cpuCount} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB RAM`);
  out(`schemas: ${SCHEMAS_DIR}/{${FLAVORS.join(",")}}/${BUNDLE_FILE} (${kb(schemaBytes)} of JSON)`);
  out(`${runs} fresh child process${runs === 1 ? "" : "es"} per row, interleaved; median [min-max]`);
  out();
  const header = ["generation (both bundles)", "run ms", "import ms", "process ms", "peak RSS MiB", "output"];
  const rows = [header];
  for (const task of taskList.filter((t) => TASKS[t].kind === "gen")) {
    const s = summary[task];
    const output =
      task === "baseline"
        ? ""
        : `${kb(s.outputChars)}, ${s.outputFiles} files` +
          (s.definitionsTotal !== undefined
            ? `, ${s.definitionsEmitted}/${s.definitionsTotal} definitions${s.definitionsEmitted === s.definitionsTotal ? "" : " (NOT ALL EMITTED)"}`
            : "");
    rows.push([
      TASKS[task].label,
      task === "baseline" ? "-" : fmtStat(s.runMs),
      task === "baseline" ? "-" : fmtStat(s.importMs),
      fmtStat(s.processMs),
      fmtStat(s.maxRssMiB),
      output,
    ]);
  }
  for (const line of table(rows)) out(line);
  out();
  out(`json-schema-to-typescript options: ${JSON.stringify(JSTT_OPTIONS)}, v2 definitions aliased to top level`);
  out(`ratio ours (types + maps) / json-schema-to-typescript:`);
  out(`  time of the call (run)         ${ratios.runTime.toFixed(2)}x  (${ours.runMs.median.toFixed(0)} ms / ${jstt.runMs.median.toFixed(0)} ms)`);
  out(
    `  time incl. module import       ${ratios.timeWithImport.toFixed(2)}x  (${(ours.runMs.median + ours.importMs.median).toFixed(0)} ms / ${(jstt.runMs.median + jstt.importMs.median).toFixed(0)} ms)`,
  );
  out(`  whole child process            ${ratios.processTime.toFixed(2)}x  (${ours.processMs.median.toFixed(0)} ms / ${jstt.processMs.median.toFixed(0)} ms)`);
  out(`  peak RSS                       ${ratios.peakRss.toFixed(2)}x  (${ours.maxRssMiB.median.toFixed(1)} MiB / ${jstt.maxRssMiB.median.toFixed(1)} MiB)`);
  const node = summary.baseline.maxRssMiB.median;
  out(
    `  peak RSS above empty node      ${ratios.peakRssAboveNode.toFixed(2)}x  (${(ours.maxRssMiB.median - node).toFixed(1)} MiB / ${(jstt.maxRssMiB.median - node).toFixed(1)} MiB; empty node ${node.toFixed(1)} MiB)`,
  );
  out(
    `target: types+maps <= ${TARGET_TYPES_RATIO}x json-schema-to-typescript: ${typesTarget.met ? "MET" : "NOT MET"}` +
      ` (time ${ratios.runTime.toFixed(2)}x ${typesTarget.timeMet ? "met" : "not met"},` +
      ` memory above empty node ${ratios.peakRssAboveNode.toFixed(2)}x ${typesTarget.memoryMet ? "met" : "not met"})`,
  );
  out();

  let load;
  if (haveValidators) {
    const v = summary["load-validators"];
    const t = summary["load-tiny"];
    const size = statSync(VALIDATORS_ENTRY).size;
    load = {
      file: relative(ROOT, VALIDATORS_ENTRY),
      bytes: size,
      validatorsMs: v.loadMs,
      tinyModuleMs: t.loadMs,
      differenceMs: v.loadMs.median - t.loadMs.median,
      validatorsMaxRssMiB: v.maxRssMiB,
      tinyModuleMaxRssMiB: t.maxRssMiB,
      incomingChunkMs: summary["load-incoming"].loadMs,
      allValidatorsMs: summary["load-all"].loadMs,
      target: `validators entry loads in <= ${TARGET_LOAD_MS} ms (median of await import())`,
      met: v.loadMs.median <= TARGET_LOAD_MS,
    };
    out(`validators entry load: ${load.file} (${(size / 1e6).toFixed(2)} MB, ${size} bytes), await import() in a fresh process`);
    const loadRows = [["", "import ms", "peak RSS MiB"]];
    loadRows.push(["import validators.js", fmtStat(v.loadMs, 1), fmtStat(v.maxRssMiB)]);
    loadRows.push(["import tiny module (baseline)", fmtStat(t.loadMs, 1), fmtStat(t.maxRssMiB)]);
    for (const task of ["load-incoming", "load-all"]) {
      loadRows.push([`${TASKS[task].label} (information)`, fmtStat(summary[task].loadMs, 1), fmtStat(summary[task].maxRssMiB)]);
    }
    loadRows.push(["difference (medians)", load.differenceMs.toFixed(1), ""]);
    for (const line of table(loadRows)) out(line);
    out(`target: validators entry loads in <= ${TARGET_LOAD_MS} ms: ${load.met ? "MET" : "NOT MET"} (median ${v.loadMs.median.toFixed(1)} ms)`);
  } else {
    out(`validators entry load: skipped, ${relative(ROOT, VALIDATORS_ENTRY)} does not exist (run \`npx -y pnpm@12.21.0 generate\`)`);
  }

  if (args.json) {
    const figures = {
      machine,
      runs,
      schemas: FLAVORS.map((f) => `${SCHEMAS_DIR}/${f}/${BUNDLE_FILE}`),
      jsonSchemaToTypescript: { version: jsttVersion, options: JSTT_OPTIONS, input: "bundle + top-level $ref alias per definitions.v2 entry" },
      generation: Object.fromEntries(taskList.filter((t) => TASKS[t].kind === "gen").map((t) => [t, summary[t]])),
      ratiosTypesToJstt: ratios,
      typesTarget,
      validatorsLoad: load ?? null,
    };
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  }
}

function spawnChild(task, module) {
  const argv = [SCRIPT, "--child", task, ...(module ? ["--module", module] : [])];
  const t0 = performance.now();
  const child = spawnSync(process.execPath, argv, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 20 });
  const processMs = performance.now() - t0;
  if (child.status !== 0) fail(`child ${task} failed (exit ${child.status ?? child.signal})`);
  const line = child.stdout.trim().split("\n").at(-1);
  return { ...JSON.parse(line), processMs };
}

/** Builds packages/codegen when dist/ is missing or older than src/. */
function ensureCodegenBuilt() {
  const src = join(CODEGEN_DIR, "src");
  // Recursive: the sources live in stage folders, whose own mtime does not change when a file is edited.
  const newestSource = Math.max(...readdirSync(src, { recursive: true }).map((f) => statSync(join(src, f)).mtimeMs));
  const builtAt = existsSync(CODEGEN_ENTRY) ? statSync(CODEGEN_ENTRY).mtimeMs : -Infinity;
  if (builtAt >= newestSource) return;
  const how = "npx -y pnpm@12.21.0 --filter @codex-rpc/codegen build";
  process.stderr.write(`packages/codegen/dist is ${builtAt === -Infinity ? "missing" : "older than src"}: building it (tsc -p tsconfig.build.json)\n`);
  let tsc;
  try {
    tsc = createRequire(join(CODEGEN_DIR, "package.json")).resolve("typescript/bin/tsc");
  } catch {
    tsc = undefined; // not installed
  }
  const build = tsc !== undefined ? spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: CODEGEN_DIR, stdio: "inherit" }) : undefined;
  if (build?.status !== 0 || !existsSync(CODEGEN_ENTRY)) fail(`could not build packages/codegen; run \`${how}\` and try again`);
}

// ---------------------------------------------------------------------------------------------
// Formatting helpers.

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted.at(-1), samples: values };
}

function fmtStat(s, digits = 0) {
  return `${s.median.toFixed(digits)} [${s.min.toFixed(digits)}-${s.max.toFixed(digits)}]`;
}

function kb(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} MB` : `${(n / 1e3).toFixed(0)} kB`;
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === 0 || i === r.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join("  ")
      .trimEnd(),
  );
}

function fail(message) {
  process.stderr.write(`bench-codegen: ${message}\n`);
  process.exit(1);
}
