import { parseArgs } from "node:util";
import { CodegenError } from "./util/codegen-error.js";
import { installCodex } from "./read/codex-binary.js";
import { exportCodexSchemas } from "./read/codex-export.js";
import { displayPath } from "./util/display-path.js";
import { generate, type FlavorReport } from "./generate.js";
import { findStaleFiles } from "./write/find-stale-files.js";
import { checkOutputDirectory, writeGeneratedFiles } from "./write/write-generated-files.js";
import { RESULT_RULES } from "./analyse/result-resolution.js";
import { readResultMapFile } from "./read/result-map-file.js";
import { BUNDLE_FILE, readSchemaFolder, type SchemaFlavor, type SchemaFolder } from "./read/schema-bundle.js";
import { diffSchemaFolders, type SchemaDiff } from "./analyse/schema-diff.js";
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { generatedOutputVersion } from "./read/generated-output.js";
import { formatSchemaDiff } from "./print/schema-diff-text.js";

const GENERATE_USAGE = `  codex-rpc-gen generate --schemas DIR --out DIR [--result-map FILE] [--package NAME] [--check]
  codex-rpc-gen generate --codex PATH | --codex-version X --out DIR [--package NAME] …
      Generate types, method maps and validators from a vendored schema directory
      (manifest.json, stable/, experimental/), or straight from a codex binary (PATH) or an
      @openai/codex version installed from npm (X): its generate-json-schema export goes to a
      temporary directory, and DIR becomes a self-contained ESM package (package.json named
      NAME, default codex-app-server-protocol). With --check, write nothing and exit 1
      listing every output file that is stale, missing or unexpected.
      --result-map FILE  JSON { "method": "ResultDefinition" } for results no rule finds;
                         it wins over every rule. Results nothing finds are typed unknown
                         (with a warning), so generation never fails on a new version.`;

const DIFF_USAGE = `  codex-rpc-gen diff OLD NEW [--json] [--fail-on breaking|any] [--flavor stable|experimental]
  codex-rpc-gen diff --from OLD --to NEW …
      What changed between two codex versions' schemas, per method and type down to the field,
      each change marked BREAKING or additive for a client (by the direction it travels).
      OLD and NEW are each one of:
        DIR            a folder \`codex app-server generate-json-schema --out DIR\` wrote (read as
                       the stable flavor; the version unknown), one holding such exports as
                       stable/ and experimental/, or a vendored schema directory (manifest.json)
        DIR            a folder of codex-rpc-gen output: it keeps its codex version, not its
                       schemas, so that version is installed from npm (as codex@VERSION)
        PATH           a codex binary (or the package's bin/codex.js): its export
        codex@VERSION  @openai/codex@VERSION installed from npm (your .npmrc applies)
      --fail-on breaking exits 1 when a change is breaking; --fail-on any when anything changed.`;

const EXIT_CODES = `Exit codes: 0 done (or up to date), 1 stale output (--check) or a change --fail-on names,
2 bad input or usage.`;

const USAGE = `codex-rpc-gen — TypeScript for the Codex app-server protocol

Usage:
${GENERATE_USAGE}
${DIFF_USAGE}

${EXIT_CODES}`;

/** What `codex-rpc-gen <command> --help` prints. */
const commandUsage = (usage: string) => `Usage:\n${usage}\n\n${EXIT_CODES}`;

type Io = { out: (line: string) => void; err: (line: string) => void };

/** Runs the CLI; returns the exit code. Output goes to the given streams (tests pass their own). */
export async function main(
  argv: readonly string[],
  io: Io = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === "generate") return runGenerate(rest, io);
    if (command === "diff") return runDiff(rest, io);
    if (command === undefined || command === "--help" || command === "-h" || command === "help") {
      io.out(USAGE);
      return command === undefined ? 2 : 0;
    }
    throw new CodegenError("USAGE", `unknown command "${command}"`);
  } catch (error) {
    if (error instanceof CodegenError) {
      io.err(`codex-rpc-gen: ${error.code}: ${error.message}`);
      if (error.code === "USAGE") io.err(USAGE);
      return 2;
    }
    throw error;
  }
}

function runGenerate(args: readonly string[], io: Io): number {
  const { values } = parse(args, {
    schemas: { type: "string" },
    codex: { type: "string" },
    "codex-version": { type: "string" },
    package: { type: "string" },
    out: { type: "string" },
    "result-map": { type: "string" },
    check: { type: "boolean" },
  });
  if (values.help) {
    io.out(commandUsage(GENERATE_USAGE));
    return 0;
  }
  const sources = (["schemas", "codex", "codex-version"] as const).filter((flag) => values[flag] !== undefined);
  if (sources.length !== 1) {
    throw new CodegenError(
      "USAGE",
      sources.length === 0 ? "--schemas DIR is required (or --codex PATH, or --codex-version X)" : `give one of --${sources.join(", --")}`,
    );
  }
  const outDir = required(values.out, "--out DIR"); // before a download that would be wasted
  if (outDir.startsWith("~")) {
    // `--out=~/x` (or a quoted ~) reaches us unexpanded: it is a folder named ~ here, not the home folder.
    io.err(`codex-rpc-gen: warning: --out ${outDir} starts with ~, which no shell expanded: writing to ${resolve(outDir)}`);
  }
  if (!values.check) checkOutputDirectory(outDir); // and so is its refusal
  if (values.schemas !== undefined) return generateFrom(required(values.schemas, "--schemas DIR"), `--schemas ${displayPath(values.schemas)}`, values, io);
  const installed = values["codex-version"] !== undefined ? installCodex(values["codex-version"], { cwd: process.cwd() }) : undefined;
  try {
    const binary = installed?.binary ?? required(values.codex, "--codex PATH");
    const exported = exportCodexSchemas(binary);
    try {
      const source = installed ? `--codex-version ${values["codex-version"]}` : `--codex ${displayPath(binary)}`;
      return generateFrom(exported.schemasDir, source, values, io, values.package ?? DEFAULT_PACKAGE);
    } finally {
      exported.dispose();
    }
  } finally {
    installed?.dispose();
  }
}

/** The package name `--codex`/`--codex-version` give the output when `--package` names none. */
const DEFAULT_PACKAGE = "codex-app-server-protocol";

function generateFrom(
  schemasDir: string,
  source: string,
  values: { out?: string | undefined; "result-map"?: string | undefined; package?: string | undefined; check?: boolean | undefined },
  io: Io,
  packageName = values.package,
): number {
  const outDir = required(values.out, "--out DIR");
  const mapFile = values["result-map"];
  if (mapFile === "") throw new CodegenError("USAGE", "--result-map FILE needs a file");
  if (packageName === "") throw new CodegenError("USAGE", "--package NAME needs a name");
  const resultMap = mapFile === undefined ? undefined : readResultMapFile(mapFile);
  // Paths as typed would leak into every header: `./x` and `x` must make the same files.
  const command =
    `codex-rpc-gen generate ${source} --out ${displayPath(outDir)}` +
    (mapFile === undefined ? "" : ` --result-map ${displayPath(mapFile)}`) +
    (values.package === undefined ? "" : ` --package ${values.package}`);
  const started = performance.now();
  const result = generate({ schemasDir, command, ...(resultMap && { resultMap }), ...(packageName && { packageName }) });
  for (const warning of result.warnings) io.err(`codex-rpc-gen: warning: ${warning}`);
  if (values.check) {
    const stale = findStaleFiles(outDir, result.files);
    if (stale.length > 0) {
      io.err(`codex-rpc-gen: ${stale.length} generated file(s) in ${outDir} are stale; run: ${command}`);
      for (const file of stale) io.err(`  ${file.reason.padEnd(10)} ${file.path}`);
      return 1;
    }
    io.out(`codex-rpc-gen: ${result.files.size} files in ${outDir} match codex ${result.codexVersion} schemas`);
    return 0;
  }
  writeGeneratedFiles(outDir, result.files);
  const ms = Math.round(performance.now() - started);
  for (const report of result.reports) for (const line of reportLines(report)) io.out(line);
  io.out(
    `codex-rpc-gen: wrote ${result.files.size} files to ${outDir.startsWith("~") ? resolve(outDir) : outDir} for codex ${result.codexVersion} in ${ms} ms`,
  );
  return 0;
}

/** The flavor's counts, then every result found by a rule other than `XParams → XResponse`. */
function reportLines(report: FlavorReport): string[] {
  const m = report.methods;
  const rules = RESULT_RULES.map((rule) => `${report.resultsByRule[rule]} ${rule}`).join(", ");
  const lines = [
    `${report.flavor}: ${report.definitions} definitions; methods: ${m.clientRequest} client requests, ` +
      `${m.serverRequest} server requests, ${m.serverNotification} server notifications, ${m.clientNotification} client notifications; ` +
      `results: ${rules}`,
  ];
  for (const result of report.results) {
    if (result.resolvedBy === "unknown" || (result.resolvedBy === "convention" && !result.how.startsWith("method name"))) continue;
    lines.push(`  ${result.resolvedBy.padEnd(10)} ${result.method}: ${result.how}`);
  }
  return lines;
}

function runDiff(args: readonly string[], io: Io): number {
  const { values, positionals } = parse(
    args,
    {
      from: { type: "string" },
      to: { type: "string" },
      json: { type: "boolean" },
      "fail-on": { type: "string" },
      flavor: { type: "string" },
    },
    true,
  );
  if (values.help) {
    io.out(commandUsage(DIFF_USAGE));
    return 0;
  }
  if (positionals.length > 2) throw new CodegenError("USAGE", `diff takes two directories, got ${positionals.length}`);
  if (positionals.length > 0 && (values.from !== undefined || values.to !== undefined)) {
    throw new CodegenError("USAGE", "give the directories either as OLD NEW or as --from/--to, not both");
  }
  const from = required(values.from ?? positionals[0], "OLD (or --from DIR)");
  const to = required(values.to ?? positionals[1], "NEW (or --to DIR)");
  const failOn = values["fail-on"];
  if (failOn !== undefined && failOn !== "breaking" && failOn !== "any") {
    throw new CodegenError("USAGE", `--fail-on takes breaking or any, not "${failOn}"`);
  }
  const flavor = values.flavor;
  if (flavor !== undefined && flavor !== "stable" && flavor !== "experimental") {
    throw new CodegenError("USAGE", `--flavor takes stable or experimental, not "${flavor}"`);
  }
  const options = flavor ? { flavors: [flavor as SchemaFlavor] } : {};
  const sides: DiffSide[] = [];
  let diff: SchemaDiff;
  try {
    sides.push(openDiffSide(from, io));
    sides.push(openDiffSide(to, io));
    const [before, after] = sides.map((side) => readSchemaFolder(side.dir)) as [SchemaFolder, SchemaFolder];
    // A flavor only one side has is skipped, and said (diffSchemaFolders refuses one --flavor asks for).
    if (flavor === undefined) {
      for (const candidate of ["stable", "experimental"] as const) {
        const lacking = [from, to].filter((_, i) => ![before, after][i]!.bundles.some((bundle) => bundle.flavor === candidate));
        if (lacking.length === 1) io.err(`codex-rpc-gen: ${candidate} not compared: ${displayPath(lacking[0]!)} has no ${candidate} schemas`);
      }
    }
    diff = diffSchemaFolders(before, after, options);
  } finally {
    for (const side of sides) side.dispose();
  }
  if (values.json) io.out(JSON.stringify(diff, null, 2));
  else for (const line of formatSchemaDiff(diff)) io.out(line);
  const counts = diff.flavors.map((f) => f.counts);
  if (failOn === "breaking" && counts.some((c) => c.breaking > 0)) return 1;
  if (failOn === "any" && counts.some((c) => c.breaking + c.additive > 0)) return 1;
  return 0;
}

type DiffSide = { readonly dir: string; dispose(): void };

/** `codex@X` (or `@openai/codex@X`): that version, installed from npm. */
const CODEX_FROM_NPM = /^(?:@openai\/)?codex@(.*)$/;

/**
 * One side of `diff` as a folder of schemas: a folder is read as it is (a vendored schema directory
 * or codex's own export) unless it is generated output, which keeps its codex version but no
 * schemas: that version is installed from npm. A file is a codex binary; `codex@X` a version from npm.
 */
function openDiffSide(spec: string, io: Io): DiffSide {
  const stat = existsSync(spec) ? statSync(spec) : undefined;
  if (stat?.isFile()) return exportedFrom(undefined, spec);
  if (stat?.isDirectory()) {
    const version = holdsSchemas(spec) ? undefined : generatedOutputVersion(spec);
    if (version === undefined) return { dir: spec, dispose() {} };
    io.err(
      `codex-rpc-gen: ${spec} is codex-rpc-gen output for codex ${version}, which keeps no schemas: comparing the schemas of @openai/codex@${version}, installed from npm`,
    );
    return exportedFrom(version);
  }
  const version = CODEX_FROM_NPM.exec(spec)?.[1];
  return version === undefined ? { dir: spec, dispose() {} } : exportedFrom(version);
}

/** The schemas of a codex version installed from npm, or of a binary. */
function exportedFrom(version: string | undefined, binary?: string): DiffSide {
  const installed = version === undefined ? undefined : installCodex(version, { cwd: process.cwd() });
  try {
    const exported = exportCodexSchemas(installed?.binary ?? binary ?? "");
    return {
      dir: exported.schemasDir,
      dispose() {
        exported.dispose();
        installed?.dispose();
      },
    };
  } catch (error) {
    installed?.dispose();
    throw error;
  }
}

function holdsSchemas(dir: string): boolean {
  return ["manifest.json", BUNDLE_FILE, join("stable", BUNDLE_FILE), join("experimental", BUNDLE_FILE)].some((file) => existsSync(join(dir, file)));
}

function parse<T extends Record<string, { type: "string" | "boolean" }>>(args: readonly string[], options: T, allowPositionals = false) {
  try {
    // Every command takes --help (-h): its usage on stdout, exit 0.
    return parseArgs({ args: [...args], options: { ...options, help: { type: "boolean", short: "h" } } as const, strict: true, allowPositionals });
  } catch (cause) {
    throw new CodegenError("USAGE", (cause as Error).message);
  }
}

function required(value: string | boolean | undefined, what: string): string {
  if (typeof value !== "string" || value === "") throw new CodegenError("USAGE", `${what} is required`);
  return value;
}
