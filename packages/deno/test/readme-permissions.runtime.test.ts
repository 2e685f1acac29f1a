// The README's own snippet under the README's own minimal permissions, as a user runs it: the first
// code block of packages/deno/README.md (the quick start, `/path/to/project` replaced by a temp
// workspace) with the first command of its "These minimal commands work" block, run from the
// repository root (where @openai/codex is installed), against the testing kit's mock model given
// to the program through CODEX_HOME, as a user's login would be. Without `--allow-env` for
// `HOME` and `CODEX_HOME` Deno drops them from codex's environment: codex falls back to ~/.codex
// and retries the network, and the program hangs.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPOSITORY_ROOT } from "@codex-rpc/test-support/pinned-codex.js";
import { runtimeBinary } from "@codex-rpc/test-support/runtimes.js";
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";
import { afterEach, expect, it } from "vitest";

const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
const minimalBlock = /These minimal commands work[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
const command = minimalBlock.split("\n").find((line) => line.startsWith("deno run")) ?? "";

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function runDeno(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(runtimeBinary("deno"), args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

it("the quick start runs to its answer with the minimal command's permissions", async () => {
  expect(snippet).toContain('spawnCodexAppServer({ cwd: "/path/to/project" })');
  expect(command).toMatch(/^deno run .*main\.ts$/);
  const provider = await MockResponsesProvider.start({ script: [reply.text("Summarised under the README's permissions.")] });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());
  const project = mkdtempSync(join(tmpdir(), "codex-rpc-deno-readme-project-"));
  cleanups.push(() => rmSync(project, { recursive: true, force: true }));
  const userHome = mkdtempSync(join(tmpdir(), "codex-rpc-deno-readme-home-"));
  cleanups.push(() => rmSync(userHome, { recursive: true, force: true }));
  // Inside the repository, so its package.json and node_modules resolve the bare specifiers.
  const scriptDir = join(REPOSITORY_ROOT, ".build", `deno-readme-${process.pid}`);
  mkdirSync(scriptDir, { recursive: true });
  cleanups.push(() => rmSync(scriptDir, { recursive: true, force: true }));
  writeFileSync(join(scriptDir, "main.ts"), snippet.replaceAll("/path/to/project", project));

  const args = command
    .split(/\s+/)
    .slice(1)
    .map((arg) => (arg === "main.ts" ? join(scriptDir, "main.ts") : arg));
  const result = await runDeno(
    [...args.slice(0, 1), "--no-prompt", ...args.slice(1)],
    { PATH: process.env.PATH ?? "", HOME: userHome, CODEX_HOME: home.env.CODEX_HOME ?? home.dir, NO_COLOR: "1" },
    REPOSITORY_ROOT,
    45_000,
  );
  expect(result.timedOut, `${command} hung:\n${result.stderr.slice(-2000)}`).toBe(false);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.trim()).toBe("Summarised under the README's permissions.");
}, 60_000);
