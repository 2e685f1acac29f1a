// The same Effect program under Node 22, Deno and Bun, each with its runtime's Layer
// (`@codex-rpc/effect/node`, `/deno`, `/bun`), against the real codex 0.169.0 and the mock model.
import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { runtimeBinary, type RuntimeName } from "@codex-rpc/test-support/runtimes.js";
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";
import { describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("./support/runtime-turn.mjs", import.meta.url));

function runScript(runtime: RuntimeName, env: Record<string, string>): Promise<string> {
  const args = runtime === "deno" ? ["run", "--allow-all", "--node-modules-dir=manual", "--no-lock", SCRIPT] : [SCRIPT];
  return new Promise((resolve, reject) => {
    execFile(runtimeBinary(runtime), args, { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${runtime} failed: ${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

describe("@codex-rpc/effect on every runtime", () => {
  it.each(["node22", "deno", "bun"] as const)("%s: its Layer spawns codex, a turn streams as a Stream", async (runtime) => {
    const provider = await MockResponsesProvider.start({ script: [reply.text(["Hel", "lo"])] });
    const home = await createCodexHome({ provider });
    try {
      const workspace = join(home.dir, "workspace");
      await mkdir(workspace);
      const stdout = await runScript(runtime, { ...home.env, WORKSPACE: workspace, CODEX_PATH: pinnedCodexBinary(), EFFECT_RUNTIME: runtime });
      expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")).toEqual({ runtime, text: "Hello", status: "completed" });
    } finally {
      await provider.close();
      await home.cleanup();
    }
  });
});
