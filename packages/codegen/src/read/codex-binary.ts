import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { CodegenError } from "../util/codegen-error.js";
import { removeLeftovers } from "../util/leftovers.js";

/** Where `@openai/codex` keeps the native binary per platform (as packages/core's binary search knows it). */
const PLATFORM_TARGETS: Readonly<Record<string, readonly [packageName: string, triple: string]>> = {
  "linux-x64": ["@openai/codex-linux-x64", "x86_64-unknown-linux-musl"],
  "linux-arm64": ["@openai/codex-linux-arm64", "aarch64-unknown-linux-musl"],
  "darwin-x64": ["@openai/codex-darwin-x64", "x86_64-apple-darwin"],
  "darwin-arm64": ["@openai/codex-darwin-arm64", "aarch64-apple-darwin"],
  "win32-x64": ["@openai/codex-win32-x64", "x86_64-pc-windows-msvc"],
  "win32-arm64": ["@openai/codex-win32-arm64", "aarch64-pc-windows-msvc"],
};

/**
 * The codex binary inside a `node_modules` that holds `@openai/codex`: the native one of this
 * platform's package, else the package's own Node launcher.
 */
export function codexBinaryIn(nodeModules: string, platform = process.platform, arch = process.arch): string | undefined {
  const target = PLATFORM_TARGETS[`${platform}-${arch}`];
  const exe = platform === "win32" ? "codex.exe" : "codex";
  const candidates = target
    ? [join(nodeModules, target[0], "vendor", target[1], "bin", exe), join(nodeModules, "@openai", "codex", "vendor", target[1], "codex", exe)]
    : [];
  candidates.push(join(nodeModules, "@openai", "codex", "bin", "codex.js"));
  return candidates.find((path) => existsSync(path));
}

export interface InstallOptions {
  /** Whose npm configuration to install with: the project around this directory (default: the process's). */
  readonly cwd?: string;
}

/**
 * Installs `@openai/codex@<version>` from npm into a temporary directory
 * (`codex-rpc-gen-codex-<pid>-XXXXXX`, mode 0700); `dispose` removes it. Such directories of processes
 * that are gone (a run ended by a signal) are removed first.
 * npm run with `--prefix` reads its project configuration from the prefix, not from where the user
 * is: the project's `.npmrc` (`projectNpmrc`) is copied into the prefix, so the install uses the
 * registry, mirror and auth npm would use in `cwd` (user and global config, and `npm_config_*`
 * variables, npm reads as ever).
 */
export function installCodex(version: string, options: InstallOptions = {}): { binary: string; dispose(): void } {
  if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) throw new CodegenError("USAGE", `--codex-version takes a version such as 0.169.0, not "${version}"`);
  // A run ended by a signal could not remove its prefix (with its copy of the .npmrc): named with its pid, it goes now.
  removeLeftovers(tmpdir(), /^codex-rpc-gen-codex-(\d+)-[A-Za-z0-9]{6}$/);
  const npmrc = projectNpmrc(options.cwd ?? process.cwd());
  const dir = mkdtempSync(join(tmpdir(), `codex-rpc-gen-codex-${process.pid}-`));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  let npm: SpawnSyncReturns<string>;
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "codex-rpc-gen-codex", private: true }));
    if (npmrc) copyFileSync(npmrc, join(dir, ".npmrc"));
    npm = runNpm(["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", `@openai/codex@${version}`]);
  } catch (cause) {
    dispose();
    throw new CodegenError("CODEX_EXPORT_FAILED", `could not install @openai/codex@${version}: ${(cause as Error).message}`);
  }
  const binary = npm.status === 0 ? codexBinaryIn(join(dir, "node_modules")) : undefined;
  if (!binary) {
    const why =
      npm.error?.message ??
      (npm.status === 0
        ? "the package holds no codex binary for this platform"
        : npm.signal
          ? `npm was stopped (${npm.signal})`
          : urlOrigins(npmErrors(npm.stderr)));
    // The registry as npm resolved it (project, user and global config, npm_config_* variables),
    // by its origin only: a token may sit in its user info or its path.
    const registry = npm.error ? undefined : registryOrigin(runNpm(["config", "get", "registry", "--prefix", dir]).stdout?.trim());
    dispose();
    const config = `${registry ? `registry ${registry}` : "npm"}${npmrc ? `, configuration from ${npmrc}` : ""}`;
    throw new CodegenError("CODEX_EXPORT_FAILED", redactSecrets(`could not install @openai/codex@${version} (${config}): ${why}`));
  }
  return { binary, dispose };
}

/**
 * npm's project configuration file for `cwd`: `.npmrc` in the folder npm takes as the project there
 * (`npm prefix`, npm's localPrefix: the workspace root inside a workspace, else the nearest folder up
 * holding a `package.json` or `node_modules`, else `cwd`). When npm cannot say, that walk by hand.
 */
export function projectNpmrc(cwd: string): string | undefined {
  const start = resolve(cwd);
  const fromNpm = runNpm(["prefix"], start);
  const said = fromNpm.status === 0 ? fromNpm.stdout.trim().split("\n").pop()?.trim() : undefined;
  const project = said && isAbsolute(said) ? said : nearestProject(start);
  const file = join(project, ".npmrc");
  return existsSync(file) ? file : undefined;
}

/** The nearest folder up from `start` holding a `package.json` or `node_modules` (`start` when none does). */
function nearestProject(start: string): string {
  for (let project = start; ; ) {
    if (existsSync(join(project, "package.json")) || existsSync(join(project, "node_modules"))) return project;
    const up = dirname(project);
    if (up === project) return start;
    project = up;
  }
}

function runNpm(args: string[], cwd?: string) {
  return spawnSync("npm", args, { encoding: "utf8", shell: process.platform === "win32", ...(cwd && { cwd }) });
}

/** npm's error lines, without its stack trace, object dump and log pointer. */
function npmErrors(stderr: string | null | undefined): string {
  const lines = (stderr ?? "")
    .split("\n")
    .filter((line) => /^npm (error|ERR!) \S/.test(line) && !/complete log of this run|behind a proxy/.test(line))
    .map((line) => line.replace(/^npm (error|ERR!) /, ""))
    .filter((line) => !/^[{}]/.test(line));
  return lines.length > 0 ? lines.slice(0, 6).join("; ") : tail(stderr);
}

/** Auth values and URL credentials (any user info: `//user@`, `//user:@`, `//user:pass@`) never reach a message. */
export function redactSecrets(text: string): string {
  return text.replace(/(_authToken|_auth|_password|token|password)(\s*[=:]\s*)[^\s;,]+/gi, "$1$2[REDACTED]").replace(/(\/\/)[^/\s@]+@/g, "$1[REDACTED]@");
}

/** A registry URL's origin (no user info, no path, where a token may sit); undefined when it is none. */
function registryOrigin(registry: string | undefined): string | undefined {
  if (!registry) return undefined;
  try {
    const origin = new URL(registry).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** Every URL in npm's lines cut to its origin (`…` for the path): a registry's path may hold a token. */
function urlOrigins(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s'"<>]+/g, (url) => {
    const origin = registryOrigin(url);
    return origin === undefined ? "[URL]" : `${origin}/…`;
  });
}

export function tail(text: string | null | undefined, lines = 5): string {
  return (text ?? "").trim().split("\n").slice(-lines).join("\n");
}
