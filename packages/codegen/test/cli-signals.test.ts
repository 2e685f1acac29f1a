// Ctrl-C (SIGINT) or SIGTERM while the CLI works (review 8 C7/N3): the work is synchronous, so with no
// handler Node died at once, leaving the temporary npm prefix (with the project's .npmrc, auth token
// and all) or a `.out.staging-…` folder behind. The CLI now lets the step end (npm, in the same
// process group, gets the signal too), cleans up, and exits 130 / 143.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "./support/temporary-directory.js";

const bin = fileURLToPath(new URL("../bin/codex-rpc-gen.js", import.meta.url));

/** A project whose `npm install` hangs (a fake npm first on PATH) until the signal comes. */
function hangingInstall() {
  const root = temporaryDirectory("codex-rpc-signal-");
  const tmp = join(root, "tmp");
  const binDir = join(root, "bin");
  const project = join(root, "project");
  for (const dir of [tmp, binDir, project]) mkdirSync(dir);
  writeFileSync(join(project, "package.json"), "{}\n");
  writeFileSync(join(project, ".npmrc"), "//registry.example/:_authToken=SECRET_LEFT_BEHIND\n");
  const started = join(root, "npm-started");
  writeFileSync(join(binDir, "npm"), `#!/bin/sh\nif [ "$1" = "install" ]; then : > "${started}"; exec sleep 30; fi\necho "npm $*"\n`);
  chmodSync(join(binDir, "npm"), 0o755);
  return { tmp, binDir, project, started };
}

async function interrupt(signal: "SIGINT" | "SIGTERM") {
  const { tmp, binDir, project, started } = hangingInstall();
  const child = spawn(process.execPath, [bin, "generate", "--codex-version", "0.169.0", "--out", "out"], {
    cwd: project,
    detached: true, // its own process group, as a terminal's Ctrl-C reaches it and npm
    env: { ...process.env, PATH: `${binDir}:${process.env.PATH}`, TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 15_000;
  while (!existsSync(started) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(existsSync(started)).toBe(true);
  process.kill(-(child.pid as number), signal);
  const result = await exited;
  return { ...result, stderr, leftInTmp: readdirSync(tmp), project };
}

describe("the CLI on SIGINT / SIGTERM", () => {
  it("SIGINT during --codex-version's npm install: exits 130 and leaves no temporary prefix (no copied .npmrc)", async () => {
    const result = await interrupt("SIGINT");
    expect(result.leftInTmp).toEqual([]);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 130, signal: null });
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain("SECRET_LEFT_BEHIND");
    expect(result.stderr).toContain("npm was stopped (SIGINT)");
    expect(result.stderr).toContain("codex-rpc-gen: interrupted (SIGINT)");
    expect(readdirSync(result.project).sort()).toEqual([".npmrc", "package.json"]);
  }, 30_000);

  it("SIGTERM likewise: exits 143, nothing left", async () => {
    const result = await interrupt("SIGTERM");
    expect(result.leftInTmp).toEqual([]);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 143, signal: null });
  }, 30_000);
});
