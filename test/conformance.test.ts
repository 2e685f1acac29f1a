// One conformance suite against the real codex app-server through every path (runtime × transport):
// handshake, thread start, a streamed turn with an approval, interrupt, and the server SIGKILLed
// mid-turn. Each path runs test/conformance/cases.mjs under its runtime as a child process (with a
// hard timeout); this file starts the mock models, CODEX_HOMEs and listening servers on the Node
// side, prints the path × case table, and fails every path with a failing cell.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findCodexBinary } from "@codex-rpc/stdio";
import { CONFORMANCE_CASES } from "./conformance/case-list.mjs";
import { runCaseScript } from "./conformance/case-script-run.js";
import { CONFORMANCE_PATHS, type ConformancePath } from "./conformance/conformance-paths.js";
import { startControlServer } from "./conformance/control-server.js";
import { PathFixture } from "./conformance/path-fixture.js";
import { formatResultsTable, type TableCell, type TableRow } from "./conformance/results-table.js";
import { conformanceRuntimeBinary, runtimeArguments, type ConformanceRuntime } from "./conformance/runtime-command.js";

const REPOSITORY_ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Five cases of at most 20 s each plus their cleanup: past this the script is killed and its missing cells fail. */
const CASE_SCRIPT_TIMEOUT_MS = 150_000;

const codexPath = findCodexBinary();
const rows: TableRow[] = [];
const runtimeVersions = new Map<ConformanceRuntime, string>();

afterAll(() => {
  const columns = CONFORMANCE_CASES.map((entry) => entry.label);
  console.log(formatResultsTable("conformance against the real codex app-server", columns, rows));
  console.log(`runtimes: ${[...runtimeVersions].map(([runtime, version]) => `${runtime} ${version}`).join(", ")}; codex ${codexPath}`);
});

describe.sequential("conformance: every path passes every case against the real codex app-server", () => {
  for (const path of CONFORMANCE_PATHS) {
    it(path.name, { timeout: CASE_SCRIPT_TIMEOUT_MS + 30_000 }, async () => {
      const cells = await runPath(path);
      rows.push({ path: path.name, cells });
      const failed = cells.flatMap((cell, index) => (cell.pass ? [] : [`${CONFORMANCE_CASES[index]!.label}: ${cell.detail}`]));
      expect(failed).toEqual([]);
    });
  }
});

async function runPath(path: ConformancePath): Promise<TableCell[]> {
  let binary: string;
  try {
    binary = conformanceRuntimeBinary(path.runtime);
    if (!runtimeVersions.has(path.runtime)) runtimeVersions.set(path.runtime, runtimeVersion(binary));
  } catch (error) {
    return CONFORMANCE_CASES.map(() => ({ pass: false, detail: `runtime unavailable: ${(error as Error).message}` }));
  }
  const fixture = await PathFixture.create(codexPath);
  const control = await startControlServer(fixture).catch(async (error: unknown) => {
    await fixture.dispose();
    throw error;
  });
  try {
    const run = await runCaseScript({
      command: binary,
      args: runtimeArguments(path.runtime, path.entry),
      env: { ...process.env, NO_COLOR: "1", CONFORMANCE_CONFIG: JSON.stringify(fixture.config(control.url)) },
      cwd: REPOSITORY_ROOT,
      timeoutMs: CASE_SCRIPT_TIMEOUT_MS,
    });
    return CONFORMANCE_CASES.map(({ id }) => run.results.get(id) ?? { pass: false, detail: `no result: ${run.ending}` });
  } finally {
    await control.close();
    await fixture.dispose();
  }
}

function runtimeVersion(binary: string): string {
  try {
    return execFileSync(binary, ["--version"], { encoding: "utf8", timeout: 10_000 }).split("\n")[0]!.trim();
  } catch {
    return "(version unknown)";
  }
}
