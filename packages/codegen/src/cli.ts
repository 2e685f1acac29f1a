import { parseArgs } from "node:util";
import { CodegenError } from "./codegen-error.js";
import { generate } from "./generate.js";
import { findStaleFiles, writeGeneratedFiles } from "./generated-output.js";
import { diffSchemaDirectories, formatSchemaDiff } from "./schema-diff.js";

const USAGE = `codex-rpc-gen — TypeScript for the Codex app-server protocol

Usage:
  codex-rpc-gen generate --schemas DIR --out DIR [--check]
      Generate types, method maps and validators from a vendored schema directory
      (manifest.json, stable/, experimental/). With --check, write nothing and exit 1
      listing every output file that is stale, missing or unexpected.
  codex-rpc-gen diff --from DIR --to DIR
      List the methods and definitions added, removed or changed between two schema directories.

Exit codes: 0 done (or up to date), 1 stale output (--check), 2 bad input or usage.`;

/** Runs the CLI; returns the exit code. Output goes to the given streams (tests pass their own). */
export async function main(
  argv: readonly string[],
  io: { out: (line: string) => void; err: (line: string) => void } = {
    out: (line) => process.stdout.write(line + "\n"),
    err: (line) => process.stderr.write(line + "\n"),
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

function runGenerate(args: readonly string[], io: { out: (line: string) => void; err: (line: string) => void }): number {
  const { values } = parse(args, { schemas: { type: "string" }, out: { type: "string" }, check: { type: "boolean" } });
  const schemasDir = required(values.schemas, "--schemas");
  const outDir = required(values.out, "--out");
  const command = `codex-rpc-gen generate --schemas ${schemasDir} --out ${outDir}`;
  const started = performance.now();
  const result = generate({ schemasDir, command });
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
  for (const report of result.reports) {
    const m = report.methods;
    io.out(
      `${report.flavor}: ${report.definitions} definitions; methods: ${m.clientRequest} client requests, ` +
        `${m.serverRequest} server requests, ${m.serverNotification} server notifications, ${m.clientNotification} client notifications; ` +
        `${report.resultsFromTable.length} results from the result table`,
    );
  }
  io.out(`codex-rpc-gen: wrote ${result.files.size} files to ${outDir} for codex ${result.codexVersion} in ${ms} ms`);
  return 0;
}

function runDiff(args: readonly string[], io: { out: (line: string) => void }): number {
  const { values } = parse(args, { from: { type: "string" }, to: { type: "string" } });
  const diff = diffSchemaDirectories(required(values.from, "--from"), required(values.to, "--to"));
  for (const line of formatSchemaDiff(diff)) io.out(line);
  return 0;
}

function parse<T extends Record<string, { type: "string" | "boolean" }>>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false });
  } catch (cause) {
    throw new CodegenError("USAGE", (cause as Error).message);
  }
}

function required(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== "string" || value === "") throw new CodegenError("USAGE", `${flag} DIR is required`);
  return value;
}
