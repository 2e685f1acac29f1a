// Consumer projects for the packed tests: a temp directory outside the workspace, packages
// installed by `npm install` from the local registry the project's global setup started (no
// workspace links), each removed by the test that made it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Consumer {
  readonly dir: string;
  /** Environment that points npm, Deno and Bun at the local registry. */
  readonly env: Record<string, string>;
  remove(): void;
}

export function registryEnv(): Record<string, string> {
  const url = process.env.CODEX_RPC_TEST_REGISTRY;
  const npmrc = process.env.CODEX_RPC_TEST_NPMRC;
  if (!url || !npmrc) throw new Error("no local registry: run the `packed` vitest project (test/packed/global-setup.ts starts it)");
  return { npm_config_userconfig: npmrc, npm_config_registry: url, NPM_CONFIG_REGISTRY: url, BUN_CONFIG_REGISTRY: url };
}

/** A fresh project with `dependencies` installed from the local registry. */
export function createConsumer(name: string, dependencies: Record<string, string>): Consumer {
  const dir = mkdtempSync(join(tmpdir(), `codex-rpc-consumer-${name}-`));
  const env = registryEnv();
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: `consumer-${name}`, private: true, type: "module", dependencies }, null, 2)}\n`);
  try {
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, env: { ...process.env, ...env }, stdio: "pipe" });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, env, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
