// The pinned runtimes the cross-runtime tests run under and the older codex releases the
// conformance suite runs against (installed into .runtimes/ by tools/install-runtimes.mjs, which
// records their binaries in .runtimes/runtimes.json), and a way to run a script under a runtime
// from a vitest test.
import { spawn } from "node:child_process";
import { accessSync, constants, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export type RuntimeName = "node22" | "deno" | "bun";

const runtimesDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", ".runtimes");
const INSTALL_HINT = "Run `node tools/install-runtimes.mjs` from the repository root (the root `test` script does it first).";

interface RuntimesManifest {
  readonly [name: string]: { readonly version: string; readonly path: string } | undefined;
}

/** The absolute path of a pinned runtime's binary. @throws Error naming the command that installs it. */
export function runtimeBinary(name: RuntimeName): string {
  return installedBinary(name, name);
}

/**
 * The native binary of a codex release installed next to the pinned one (`CODEX_RELEASES` in
 * tools/install-runtimes.mjs, e.g. "0.166.0"): the pinned 0.169.0 is a devDependency, found with
 * pinnedCodexBinary() (pinned-codex.ts). @throws Error naming the command that installs it.
 */
export function codexReleaseBinary(version: string): string {
  return installedBinary(`codex-${version}`, `codex ${version}`);
}

function installedBinary(name: string, label: string): string {
  const manifestPath = join(runtimesDir, "runtimes.json");
  let manifest: RuntimesManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as RuntimesManifest;
  } catch {
    throw new Error(`The test runtimes are not installed (no ${manifestPath}). ${INSTALL_HINT}`);
  }
  const entry = manifest[name];
  if (!entry) throw new Error(`${manifestPath} lists no ${name}. ${INSTALL_HINT}`);
  const binary = join(runtimesDir, entry.path);
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    throw new Error(`${label === name ? `${name} ${entry.version}` : label} is missing: ${binary} is not an executable file. ${INSTALL_HINT}`);
  }
  return binary;
}

export interface RunUnderRuntimeOptions {
  readonly cwd?: string;
  /** The runtime's entire environment. Default: this process's, without NODE_OPTIONS (meant for this Node). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Kill the runtime (SIGKILL) and report `timedOut` after this long. */
  readonly timeoutMs: number;
  /** Called with each JSON line the script prints, as it arrives (e.g. to act in the middle of a run). */
  readonly onResult?: (result: Record<string, unknown>) => void;
}

export interface RuntimeRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The stdout lines that were JSON objects, in order. */
  readonly results: Record<string, unknown>[];
  /** The other stdout lines. */
  readonly otherOutput: string[];
  /** stderr, cut to its last 20 000 characters. */
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly elapsedMs: number;
}

const STDERR_KEPT_CHARS = 20_000;

/**
 * Runs `runtime args…` (e.g. `deno run … script.ts`) to its end and collects the JSON lines it
 * prints. Never rejects for what the script does; a run that outlives `timeoutMs` is killed.
 */
export function runUnderRuntime(runtime: RuntimeName, args: readonly string[], options: RunUnderRuntimeOptions): Promise<RuntimeRun> {
  const { NODE_OPTIONS: _nodeOptions, ...inherited } = process.env;
  const startedAt = performance.now();
  const child = spawn(runtimeBinary(runtime), args, { cwd: options.cwd, env: options.env ?? inherited, stdio: ["ignore", "pipe", "pipe"] });
  const results: Record<string, unknown>[] = [];
  const otherOutput: string[] = [];
  let stderr = "";
  let partial = "";
  let timedOut = false;

  const takeLine = (line: string): void => {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      otherOutput.push(line);
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      otherOutput.push(line);
      return;
    }
    results.push(parsed as Record<string, unknown>);
    options.onResult?.(parsed as Record<string, unknown>);
  };
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) takeLine(line);
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => {
    stderr = (stderr + text).slice(-STDERR_KEPT_CHARS);
  });

  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, options.timeoutMs);
  return new Promise<RuntimeRun>((resolvePromise) => {
    child.once("error", (error) => {
      clearTimeout(timer);
      resolvePromise({
        exitCode: null,
        signal: null,
        results,
        otherOutput,
        stderr: `${stderr}\n${error.message}`,
        timedOut,
        elapsedMs: performance.now() - startedAt,
      });
    });
    child.once("close", (exitCode, signal) => {
      clearTimeout(timer);
      takeLine(partial);
      resolvePromise({ exitCode, signal, results, otherOutput, stderr, timedOut, elapsedMs: performance.now() - startedAt });
    });
  });
}

/** Whether a process with this id still runs (signal 0 only checks). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
