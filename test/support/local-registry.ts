// A local npm registry for the tests that install the packages as a user would: verdaccio (the
// root devDependency) on a free loopback port, its storage in a temp directory, proxying everything
// but `@codex-rpc/*` to the npm registry; the workspace's packages are packed (`pnpm pack`, which
// writes the real version ranges) and published to it with tools/release-publish.mjs, the release's
// own publish step. Stopped and removed by `stop()`.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** A `.npmrc` naming the registry (and a token, which npm wants before it publishes). */
  readonly npmrc: string;
  /** Environment for npm, Deno and Bun to install from this registry only. */
  readonly env: Record<string, string>;
  /** What `tools/release-publish.mjs --dry-run` printed before the publish (every package "would publish"). */
  dryRunOutput: string;
  /** The packed tarballs (`--out` of tools/release-publish.mjs), for another run with `--reuse`. */
  readonly tarballs: string;
  /** What `tools/release-publish.mjs` printed: the table of published packages. */
  publishOutput: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function waitForPing(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}):\n${log()}`);
    try {
      const response = await fetch(`${url}-/ping`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`verdaccio did not answer on ${url} within 60 s:\n${log()}`);
}

/** Starts verdaccio and, unless `publish: false`, publishes every public package to it. */
export async function startLocalRegistry(options: { publish?: boolean } = {}): Promise<LocalRegistry> {
  const dir = mkdtempSync(join(tmpdir(), "codex-rpc-registry-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const upstream = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim() || "https://registry.npmjs.org/";
  mkdirSync(join(dir, "storage"));
  writeFileSync(
    join(dir, "config.yaml"),
    [
      `storage: ${join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "uplinks:",
      "  npmjs:",
      `    url: ${upstream}`,
      "    timeout: 60s",
      "packages:",
      "  '@codex-rpc/*':",
      "    access: $all",
      "    publish: $all",
      "    unpublish: $all",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "    proxy: npmjs",
      "server:",
      "  keepAliveTimeout: 60",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const npmrc = join(dir, ".npmrc");
  writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=local-registry-test\naudit=false\nfund=false\nupdate-notifier=false\n`);
  const verdaccio = join(repositoryRoot, "node_modules", "verdaccio", "bin", "verdaccio");
  const child = spawn(process.execPath, [verdaccio, "--config", join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const env = {
    npm_config_userconfig: npmrc,
    npm_config_registry: url,
    NPM_CONFIG_REGISTRY: url, // Deno's npm: specifiers and Bun read this one
    BUN_CONFIG_REGISTRY: url,
  };
  const registry: LocalRegistry = { url, npmrc, env, tarballs: join(dir, "tarballs"), dryRunOutput: "", publishOutput: "", stop };
  const publish = (...args: string[]) =>
    execFileSync(process.execPath, [join(repositoryRoot, "tools", "release-publish.mjs"), "--registry", url, ...args], {
      cwd: repositoryRoot,
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
  try {
    await waitForPing(url, child, () => output);
    if (options.publish !== false) {
      mkdirSync(join(dir, "tarballs"));
      registry.dryRunOutput = publish("--dry-run", "--out", join(dir, "tarballs"));
      registry.publishOutput = publish("--out", join(dir, "tarballs"), "--reuse");
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return registry;
}
