// `pnpm demo -- --real "prompt"` (the form the README's Development table used to print) reaches the
// script as `-- --real prompt`: it must take the real mode (your codex home, your prompt), not
// silently run the offline demo. The "user's codex" is a CODEX_HOME pointed at the mock model; the
// test stops the demo once it has connected and sent the prompt.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";
import { expect, it } from "vitest";

const demo = fileURLToPath(new URL("../examples/demo.mjs", import.meta.url));

/** Runs the demo until it has printed the prompt and started the answer (or 30 s), then stops it. */
function runUntilPrompt(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    // A process group of its own, so stopping it stops the codex it started too.
    const child = spawn(process.execPath, [demo, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    const stop = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(stop, 30_000);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (stdout.includes("codex: ")) stop();
    });
    child.on("close", () => {
      clearTimeout(timer);
      resolve(stdout);
    });
  });
}

it.each([
  ["demo -- --real", ["--", "--real", "Which", "files?"]],
  ["demo --real", ["--real", "Which", "files?"]],
])("%s runs your own codex (CODEX_HOME, HOME) with your prompt", async (_, args) => {
  const provider = await MockResponsesProvider.start({ script: [reply.text("Answered.")] });
  const home = await createCodexHome({ provider });
  // The demo is stopped before its own cleanup runs: its workspace goes into a temp dir of ours.
  const demoTmp = mkdtempSync(join(tmpdir(), "codex-rpc-demo-real-"));
  try {
    const stdout = await runUntilPrompt(args, { ...home.env, TMPDIR: demoTmp });
    expect(stdout).toContain("connected to codex-rpc-demo");
    expect(stdout).toContain("you: Which files?");
    expect(stdout).not.toContain("mock model on");
  } finally {
    rmSync(demoTmp, { recursive: true, force: true });
    await home.cleanup();
    await provider.close();
  }
});

it("a prompt without --real is refused, not ignored", () => {
  const run = spawnSync(process.execPath, [demo, "--", "Which files?"], { encoding: "utf8" });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('a prompt ("Which files?") is only for your own model: pass --real before it');
});
