// Signals and an interrupted run's leftovers (review 9 G-SIG/G-INT): the CLI sets no signal handler,
// so SIGTERM / SIGINT end it at once, as Node does by default, even while a child (npm, codex) runs
// (a handler would wait for spawnSync to return). What such a run leaves behind (the temporary npm
// prefix holding a copy of the project's .npmrc, or an `.out.staging-…` folder) is named with its pid,
// and the next run removes those whose process is gone.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "./support/temporary-directory.js";
import { writeSchemaFixture } from "./support/schema-fixture.js";

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

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid as number;
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

describe("an interrupted run's leftovers", () => {
  it("the next --codex-version run removes a temporary npm prefix of a dead pid, keeps a live one's", () => {
    const p = project("echo 'npm error 404 Not Found' >&2; exit 1");
    const dead = join(p.tmp, `codex-rpc-gen-codex-${deadPid()}-AbC123`);
    const live = join(p.tmp, `codex-rpc-gen-codex-${process.pid}-XyZ789`);
    const other = join(p.tmp, "codex-rpc-gen-codex-notapid-AbC123");
    for (const dir of [dead, live, other]) {
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, ".npmrc"), "//registry.example/:_authToken=SECRET_LEFT_BEHIND\n");
    }
    const result = spawnSync(process.execPath, [bin, "generate", "--codex-version", "0.169.0", "--out", "out"], { cwd: p.dir, env: p.env, encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("CODEX_EXPORT_FAILED");
    expect(readdirSync(p.tmp).sort()).toEqual([`codex-rpc-gen-codex-${process.pid}-XyZ789`, "codex-rpc-gen-codex-notapid-AbC123"]);
  }, 30_000);

  it("the next generate removes a staging folder of a dead pid beside --out, and only that", () => {
    const schemas = writeSchemaFixture();
    const root = temporaryDirectory("codex-rpc-staging-");
    const pid = deadPid();
    const leftovers = [`.out.staging-${pid}-AbC123`, `.out.staging-${pid}-AbC123-previous`];
    const kept = [`.out.staging-${process.pid}-AbC123`, `.other.staging-${pid}-AbC123`, `.out.staging-${pid}-AbC123-later`];
    for (const name of [...leftovers, ...kept]) {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, "index.ts"), "// left\n");
    }
    const result = spawnSync(process.execPath, [bin, "generate", "--schemas", schemas, "--out", join(root, "out")], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(readdirSync(root).sort()).toEqual([...kept, "out"].sort());
  }, 30_000);
});
