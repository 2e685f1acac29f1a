// The codex-rpc-relay CLI (dist/cli.js, as `npx codex-rpc-relay` runs it) started against a fresh
// mock-model CODEX_HOME and the pinned codex, for the CLI tests. Its cleanups (the process, the
// home, the mock model) go on the caller's list, run after each test.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { createCodexHome, MockResponsesProvider } from "@codex-rpc/testing";

const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export interface RelayCli {
  readonly child: ChildProcess;
  /** Everything it wrote to stderr so far. */
  readonly output: { stderr: string };
  readonly exited: Promise<number | null>;
}

/** Starts the CLI with `--port 0 --codex <pinned>` and `args`; `path` is its PATH (default ours). */
export async function startRelayCli(
  cleanups: (() => Promise<void> | void)[],
  args: readonly string[],
  path = process.env.PATH ?? "/usr/bin:/bin",
): Promise<RelayCli> {
  const provider = await MockResponsesProvider.start({ script: [] });
  const home = await createCodexHome({ provider });
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const child = spawn(process.execPath, [CLI, "--port", "0", "--codex", pinnedCodexBinary(), ...args], {
    env: { PATH: path, ...home.env },
    cwd: home.dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { stderr: "" };
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (output.stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  cleanups.push(() => void child.kill("SIGKILL"));
  return { child, output, exited };
}
