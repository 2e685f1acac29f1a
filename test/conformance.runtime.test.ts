// One conformance suite against the real codex app-server through every path (runtime × transport,
// and the Effect binding on Node, Deno and Bun):
// handshake, the client's version check, thread start, a streamed turn with an approval, interrupt,
// and the server SIGKILLed mid-turn. Each path runs test/conformance/cases.mjs under its runtime as a
// child process (with a hard timeout); this file starts the mock models, CODEX_HOMEs and listening
// servers on the Node side, prints the path × case table and the codex version × case table, and
// fails every path with a failing cell.
//
// The codex-version dimension: every path runs against the pinned codex 0.169.0 with the client's
// default protocol (@codex-rpc/protocol, 0.169.0), against codex 0.166.0 (installed from npm into
// .runtimes/ by tools/install-runtimes.mjs) with a protocol generated for 0.166.0 from the vendored
// schemas (in beforeAll, into the git-ignored .build/), and against codex 0.166.0 with the 0.169.0
// client, which must see one version-mismatch diagnostic per connection and nothing else go wrong.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { protocol as pinnedProtocol } from "@codex-rpc/protocol";
import { CONFORMANCE_CASES } from "./conformance/case-list.mjs";
import { runCaseScript } from "./conformance/case-script-run.js";
import { formatCompatibilityTable, type CompatibilityRow } from "./conformance/compatibility-table.js";
import { CHROMIUM_PATH, CONFORMANCE_PATHS, type ConformancePath, EFFECT_CONFORMANCE_PATHS } from "./conformance/conformance-paths.js";
import { startControlServer } from "./conformance/control-server.js";
import { PathFixture } from "./conformance/path-fixture.js";
import { formatResultsTable, type TableCell, type TableRow } from "./conformance/results-table.js";
import { conformanceRuntimeBinary, runtimeArguments, type ConformanceRuntime } from "./conformance/runtime-command.js";
import { PINNED_CODEX_VERSION, pinnedCodexBinary } from "./support/pinned-codex.js";
import { codexReleaseBinary } from "./support/runtimes.js";

const REPOSITORY_ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Six cases of at most 20 s each plus their cleanup: past this the script is killed and its missing cells fail. */
const CASE_SCRIPT_TIMEOUT_MS = 150_000;
/** The codex release package.json pins (a devDependency). */
const PINNED_CODEX = PINNED_CODEX_VERSION;
/** The older release, installed by tools/install-runtimes.mjs, with its schemas vendored in schemas/codex/. */
const OLDER_CODEX = "0.166.0";

/** One pairing of a codex server and the protocol its client is typed and validated by. */
interface CodexTarget {
  /** The codex version the server runs. */
  readonly server: string;
  /** The codex binary. @throws Error saying how to install it. */
  readonly codexPath: () => string;
  /** The protocol's codex version, and (for a generated one) the vendored schemas it is generated from in beforeAll. */
  readonly protocol: { readonly version: string; readonly generated: boolean };
  readonly paths: readonly ConformancePath[];
}

const TARGETS: readonly CodexTarget[] = [
  // Chromium runs wherever the client uses @codex-rpc/protocol; the Effect binding's paths against
  // the pinned codex only: its version handling is core's, which the other targets cover, and the
  // run stays short.
  {
    server: PINNED_CODEX,
    codexPath: pinnedCodexBinary,
    protocol: { version: pinnedProtocol.version, generated: false },
    paths: [...CONFORMANCE_PATHS, CHROMIUM_PATH, ...EFFECT_CONFORMANCE_PATHS],
  },
  { server: OLDER_CODEX, codexPath: () => codexReleaseBinary(OLDER_CODEX), protocol: { version: OLDER_CODEX, generated: true }, paths: CONFORMANCE_PATHS },
  {
    server: OLDER_CODEX,
    codexPath: () => codexReleaseBinary(OLDER_CODEX),
    protocol: { version: pinnedProtocol.version, generated: false },
    paths: [...CONFORMANCE_PATHS, CHROMIUM_PATH],
  },
];

const protocolLabel = (target: CodexTarget) => `${target.protocol.version} (${target.protocol.generated ? "generated" : "@codex-rpc/protocol"})`;
const rowName = (target: CodexTarget, path: ConformancePath) => `codex ${target.server} · protocol ${target.protocol.version} · ${path.name}`;

const rowsByTarget = new Map<CodexTarget, TableRow[]>(TARGETS.map((target) => [target, []]));
const runtimeVersions = new Map<ConformanceRuntime, string>();
const codexPaths = new Map<string, string>();
/** Generated protocol modules by codex version: the module's `file:` URL, or why generating it failed. */
const generatedProtocols = new Map<string, { url: string } | { error: string }>();
let generatedDir: string | undefined;

beforeAll(() => {
  const versions = new Set(TARGETS.filter((target) => target.protocol.generated).map((target) => target.protocol.version));
  if (versions.size === 0) return;
  // A folder of its own per run, so two runs at once cannot write over each other's modules.
  mkdirSync(join(REPOSITORY_ROOT, ".build"), { recursive: true });
  generatedDir = mkdtempSync(join(REPOSITORY_ROOT, ".build", "conformance-protocols-"));
  for (const version of versions) generatedProtocols.set(version, generateProtocol(version, join(generatedDir, version)));
});

afterAll(() => {
  const columns = CONFORMANCE_CASES.map((entry) => entry.label);
  const rows = TARGETS.flatMap((target) => rowsByTarget.get(target)!);
  console.log(formatResultsTable("conformance against the real codex app-server", columns, rows));
  const compatibility: CompatibilityRow[] = TARGETS.map((target) => ({
    server: target.server,
    protocol: protocolLabel(target),
    paths: rowsByTarget.get(target)!,
  }));
  const factsColumn = CONFORMANCE_CASES.findIndex((entry) => entry.id === "versions");
  console.log(`\n${formatCompatibilityTable("compatibility: codex server × client protocol", columns, compatibility, factsColumn)}`);
  console.log(
    `\nruntimes: ${[...runtimeVersions].map(([runtime, version]) => `${runtime} ${version}`).join(", ")}; ` +
      [...codexPaths].map(([version, path]) => `codex ${version} ${path}`).join("; "),
  );
  if (generatedDir) rmSync(generatedDir, { recursive: true, force: true });
});

describe.sequential("conformance: every path passes every case against the real codex app-server, for each codex version", () => {
  for (const target of TARGETS) {
    for (const path of target.paths) {
      it(rowName(target, path), { timeout: CASE_SCRIPT_TIMEOUT_MS + 30_000 }, async () => {
        const cells = await runPath(target, path);
        rowsByTarget.get(target)!.push({ path: rowName(target, path), cells });
        const failed = cells.flatMap((cell, index) => (cell.pass ? [] : [`${CONFORMANCE_CASES[index]!.label}: ${cell.detail}`]));
        expect(failed).toEqual([]);
      });
    }
  }
});

async function runPath(target: CodexTarget, path: ConformancePath): Promise<TableCell[]> {
  const failAll = (detail: string) => CONFORMANCE_CASES.map(() => ({ pass: false, detail }));
  let binary: string;
  let codexPath: string;
  try {
    binary = conformanceRuntimeBinary(path.runtime);
    if (!runtimeVersions.has(path.runtime)) runtimeVersions.set(path.runtime, runtimeVersion(binary));
  } catch (error) {
    return failAll(`runtime unavailable: ${(error as Error).message}`);
  }
  try {
    codexPath = target.codexPath();
    codexPaths.set(target.server, relative(REPOSITORY_ROOT, codexPath));
  } catch (error) {
    return failAll(`codex ${target.server} unavailable: ${(error as Error).message}`);
  }
  let protocolModuleUrl: string | undefined;
  if (target.protocol.generated) {
    const generated = generatedProtocols.get(target.protocol.version);
    if (!generated || "error" in generated) return failAll(`no protocol for codex ${target.protocol.version}: ${generated?.error ?? "not generated"}`);
    protocolModuleUrl = generated.url;
  }

  const fixture = await PathFixture.create(codexPath);
  const control = await startControlServer(fixture).catch(async (error: unknown) => {
    await fixture.dispose();
    throw error;
  });
  try {
    const config = fixture.config(control.url, { versions: { server: target.server, protocol: target.protocol.version }, protocolModuleUrl });
    const run = await runCaseScript({
      command: binary,
      args: runtimeArguments(path.runtime, path.entry),
      env: { ...process.env, NO_COLOR: "1", CONFORMANCE_CONFIG: JSON.stringify(config) },
      cwd: REPOSITORY_ROOT,
      timeoutMs: CASE_SCRIPT_TIMEOUT_MS,
    });
    return CONFORMANCE_CASES.map(({ id }) => run.results.get(id) ?? { pass: false, detail: `no result: ${run.ending}` });
  } finally {
    await control.close();
    await fixture.dispose();
  }
}

/** `codex-rpc-gen generate` from the vendored schemas of `version` into `out`: a self-contained ESM package. */
function generateProtocol(version: string, out: string): { url: string } | { error: string } {
  try {
    execFileSync(
      process.execPath,
      [
        join(REPOSITORY_ROOT, "packages/codegen/bin/codex-rpc-gen.js"),
        "generate",
        "--schemas",
        `schemas/codex/${version}`,
        "--out",
        relative(REPOSITORY_ROOT, out),
        "--package",
        "@codex-rpc/protocol",
      ],
      { cwd: REPOSITORY_ROOT, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", timeout: 60_000 },
    );
    return { url: pathToFileURL(join(out, "stable", "index.js")).href };
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "")
      .trim()
      .split("\n")
      .slice(-3)
      .join(" | ");
    return {
      error: `codex-rpc-gen generate --schemas schemas/codex/${version} failed: ${(error as Error).message.split("\n")[0]}${stderr ? `: ${stderr}` : ""}`,
    };
  }
}

function runtimeVersion(binary: string): string {
  try {
    return execFileSync(binary, ["--version"], { encoding: "utf8", timeout: 10_000 }).split("\n")[0]!.trim();
  } catch {
    return "(version unknown)";
  }
}
