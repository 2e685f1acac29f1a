// Signals and an interrupted run's leftovers (review 9 G-SIG/G-INT): the CLI sets no signal handler,
// so SIGTERM / SIGINT end it at once, as Node does by default, even while a child (npm, codex) runs
// (a handler would wait for spawnSync to return).
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "./support/temporary-directory.js";

const bin = fileURLToPath(new URL("../bin/codex-rpc-gen.js", import.meta.url));

/** A project with its own TMPDIR and a fake npm first on PATH: `npm install` runs `install` (a shell snippet). */
function project(install: string) {
  const root = temporaryDirectory("codex-rpc-signal-");
  const tmp = join(root, "tmp");
  const binDir = join(root, "bin");
  const dir = join(root, "project");
  for (const d of [tmp, binDir, dir]) mkdirSync(d);
  writeFileSync(join(dir, "package.json"), "{}\n");
  writeFileSync(join(dir, ".npmrc"), "//registry.example/:_authToken=SECRET_LEFT_BEHIND\n");
  const npmPid = join(root, "npm-pid");
  writeFileSync(join(binDir, "npm"), `#!/bin/sh\nif [ "$1" = "install" ]; then echo $$ > "${npmPid}"; ${install}; fi\necho "npm $*"\n`);
  chmodSync(join(binDir, "npm"), 0o755);
  const env = { ...process.env, PATH: `${binDir}:${process.env.PATH}`, TMPDIR: tmp };
  return { tmp, dir, npmPid, env };
}

describe("the CLI on SIGTERM", () => {
  it("SIGTERM to the CLI's pid alone while npm install hangs ends it at once (killed by SIGTERM)", async () => {
    const p = project("exec sleep 60");
    const child = spawn(process.execPath, [bin, "generate", "--codex-version", "0.169.0", "--out", "out"], {
      cwd: p.dir,
      env: p.env,
      stdio: "ignore",
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    const deadline = Date.now() + 15_000;
    while (!existsSync(p.npmPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(p.npmPid)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sent = Date.now();
    child.kill("SIGTERM");
    const result = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 5_000))]);
    if (result === "still running") child.kill("SIGKILL");
    try {
      process.kill(Number(readFileSync(p.npmPid, "utf8").trim()), "SIGKILL");
    } catch {}
    expect(result).toEqual({ code: null, signal: "SIGTERM" });
    expect(Date.now() - sent).toBeLessThan(5_000);
  }, 30_000);
});
