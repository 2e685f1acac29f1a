// The demo's `--real` mode (your own codex login and model) where it used to look hung: without a
// login, and with a model codex cannot reach (codex 0.169.0 then retries for ever, measured).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const DEMO = fileURLToPath(new URL("../examples/demo.mjs", import.meta.url));
const made: string[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function emptyDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** The demo's environment: a home of its own (no login unless the test writes one), a temp dir of its own. */
async function demoEnv(config?: string): Promise<NodeJS.ProcessEnv> {
  const home = await emptyDir("codex-rpc-demo-home-");
  if (config !== undefined) await writeFile(join(home, "config.toml"), config);
  const { OPENAI_API_KEY: _, ...env } = process.env;
  return { ...env, HOME: home, CODEX_HOME: home, TMPDIR: await emptyDir("codex-rpc-demo-tmp-"), NO_COLOR: "1" };
}

/** The demo against a provider on a closed port (no login needed, every request refused), once codex has said it retries. */
async function demoRetrying(options: { detached?: boolean } = {}) {
  const env = await demoEnv(
    'model = "m"\nmodel_provider = "dead"\n[model_providers.dead]\nname = "dead"\nbase_url = "http://127.0.0.1:9/v1"\nwire_api = "responses"\n',
  );
  const child = spawn(process.execPath, [DEMO, "--real", "hi"], { env, stdio: ["ignore", "pipe", "pipe"], ...options });
  children.push(child);
  const output = { stdout: "", stderr: "" };
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  await new Promise<void>((resolve) =>
    child.stdout.on("data", (chunk: Buffer) => {
      output.stdout += chunk.toString();
      if (output.stdout.includes("(codex: Reconnecting")) resolve();
    }),
  );
  return { child, output, exited, tmpdir: env.TMPDIR as string };
}

describe("examples/demo.mjs --real", () => {
  it("says codex is not logged in and exits 2 at once, instead of waiting on a model it cannot use", async () => {
    const run = spawnSync(process.execPath, [DEMO, "--real", "hi"], {
      encoding: "utf8",
      timeout: 30_000,
      env: await demoEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(run.signal).toBeNull();
    expect(run.stderr).toContain("demo: codex is not logged in: run `npx @openai/codex login` (or set OPENAI_API_KEY)");
    expect(run.status).toBe(2);
  });

  it("shows codex's retries of a model it cannot reach, and Ctrl-C interrupts the turn and cleans up", async () => {
    const demo = await demoRetrying();
    expect(demo.output.stdout).toContain("(codex retries the model; Ctrl-C stops the turn)");
    demo.child.kill("SIGINT");
    expect(await demo.exited).toBe(130);
    expect(demo.output.stdout).toContain("turn interrupted");
    // The workspace the demo made in its temp dir is gone.
    expect(await readdir(demo.tmpdir)).toEqual([]);
  }, 60_000);

  it("Ctrl-C in a terminal (SIGINT to the whole process group, codex included) ends the demo as interrupted, not failed", async () => {
    // A process group of its own, as a terminal's foreground job has.
    const demo = await demoRetrying({ detached: true });
    process.kill(-demo.child.pid!, "SIGINT");
    expect(await demo.exited).toBe(130);
    // Before: "demo failed: connection closed; server killed by SIGINT" and codex's stderr, exit 1.
    expect(demo.output.stderr).not.toContain("demo failed");
    expect(`${demo.output.stdout}${demo.output.stderr}`).toMatch(/interrupted/);
    expect(await readdir(demo.tmpdir)).toEqual([]);
  }, 60_000);
});
