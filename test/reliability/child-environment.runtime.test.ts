// The codex child process gets exactly what the caller passed plus what codex needs
// (CODEX_ENVIRONMENT_NEEDS): never the rest of the parent's environment, where API keys and cloud
// credentials live. Checked at the process boundary with a stand-in "codex" that reports what it
// received, through the Node, Deno and Bun adapters; and on the real codex, through a command it
// runs for the model.
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CodexClient } from "@codex-rpc/core";
import { CODEX_ENVIRONMENT_NEEDS } from "@codex-rpc/core/process";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";
import { pinnedCodexBinary } from "../support/pinned-codex.js";
import { runUnderRuntime } from "../support/runtimes.js";
import { environmentSeenBy } from "./support/environment-probe.js";
import { recordReliability } from "./support/reliability-report.js";

const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CANARY = "CODEX_RPC_SECRET_CANARY";
let dir: string;
let standIn: string;
/** The parent environment every probe runs in: this one plus a secret that must not travel. */
let parentEnv: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "codex-rpc-env-"));
  standIn = join(dir, "codex");
  await writeFile(
    standIn,
    `#!/usr/bin/env node
process.stdout.write(JSON.stringify({ method: "env", params: { names: Object.keys(process.env) } }) + "\\n");
process.stdin.on("end", () => process.exit(0)).resume();
`,
  );
  await chmod(standIn, 0o755);
  const { NODE_OPTIONS: _ignored, ...inherited } = process.env;
  parentEnv = { ...(inherited as Record<string, string>), [CANARY]: "sk-canary-must-not-leak", OPENAI_API_KEY: "sk-parent-key-must-not-leak" };
});

afterAll(() => rm(dir, { recursive: true, force: true }));

/** What the child should see, given the parent's environment: the needed names it has, plus what was passed. */
function expectedNames(parent: Readonly<Record<string, string | undefined>>): string[] {
  return [...CODEX_ENVIRONMENT_NEEDS.filter((name) => parent[name] !== undefined), "CODEX_RPC_PASSED"].sort();
}

it("Node (@codex-rpc/stdio): exactly what was passed plus what codex needs", async () => {
  const saved = { ...process.env };
  Object.assign(process.env, { [CANARY]: parentEnv[CANARY], OPENAI_API_KEY: parentEnv.OPENAI_API_KEY });
  try {
    const names = await environmentSeenBy({ spawnCodexAppServer }, standIn);
    expect(names).toEqual(expectedNames(process.env));
    expect(names).not.toContain(CANARY);
    expect(names).not.toContain("OPENAI_API_KEY");
    expect(names).toContain("PATH");
  } finally {
    process.env = saved;
  }
  recordReliability({ area: "security: child environment", cases: 1 });
});

for (const runtime of ["deno", "bun"] as const) {
  it(`${runtime === "deno" ? "Deno" : "Bun"} (@codex-rpc/${runtime}): the same`, async () => {
    const script = join("test", "reliability", "support", "environment-probe.ts");
    const args = runtime === "deno" ? ["run", "--no-prompt", "--allow-all", script, runtime, standIn] : ["--no-install", script, runtime, standIn];
    const run = await runUnderRuntime(runtime, args, { cwd: REPOSITORY_ROOT, env: parentEnv, timeoutMs: 30_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const names = (run.results[0] as { names: string[] }).names;
    expect(names).toContain("CODEX_RPC_PASSED");
    expect(names).toContain("PATH");
    expect(names).not.toContain(CANARY);
    expect(names).not.toContain("OPENAI_API_KEY");
    // The runtime may add a needed variable of its own (e.g. a temp dir); nothing else may appear.
    for (const name of names) expect([...CODEX_ENVIRONMENT_NEEDS, "CODEX_RPC_PASSED"]).toContain(name);
    recordReliability({ area: "security: child environment", cases: 1 });
  });
}

it("the real codex: a command it runs for the model sees what was passed, not the parent's secrets", async () => {
  const call = reply.execCommand({ cmd: "env" });
  const provider = await MockResponsesProvider.start({ script: [call, reply.text("done")] });
  const home = await createCodexHome({ provider });
  const saved = { ...process.env };
  Object.assign(process.env, { [CANARY]: parentEnv[CANARY] });
  try {
    const transport = await spawnCodexAppServer({ codexPath: pinnedCodexBinary(), env: { ...home.env, CODEX_RPC_PASSED: "yes" }, cwd: dir });
    const client = await CodexClient.connect(transport);
    try {
      const thread = await client.startThread({ cwd: dir, approvalPolicy: "never" });
      const done = await thread.run("print the environment").completed;
      const command = done.items.find((item) => item.type === "commandExecution");
      const output = command && "aggregatedOutput" in command ? String(command.aggregatedOutput) : "";
      expect(output).toContain("CODEX_RPC_PASSED=yes");
      expect(output).not.toContain(CANARY);
    } finally {
      await client.close();
    }
  } finally {
    process.env = saved;
    await provider.close();
    await home.cleanup();
  }
  recordReliability({ area: "security: child environment", cases: 1 });
});
