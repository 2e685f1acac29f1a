import { codexPlatformTarget as platformTarget, nodeStyleBinaryHost, searchCodexBinary, type CodexPlatformTarget } from "@codex-rpc/core/process";
import { accessSync, constants, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface FindCodexBinaryOptions {
  /** Use exactly this binary. When it is unusable the search fails: no silent fallback to another codex. */
  readonly explicitPath?: string;
  /** Where `CODEX_BIN` and `PATH` are read from. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Directories to resolve the `@openai/codex` package from, in order. Default: the current
   * working directory (the caller's project), then this package's own dependencies.
   */
  readonly packageSearchFrom?: readonly string[];
}

/** The platform package and vendor directory that hold the native binary on this machine, if codex ships one. */
export function codexPlatformTarget(platform: string = process.platform, arch: string = process.arch): CodexPlatformTarget | undefined {
  return platformTarget(platform, arch);
}

/**
 * Finds the codex binary, trying in order:
 * 1. `explicitPath`;
 * 2. the `CODEX_BIN` environment variable;
 * 3. the `@openai/codex` npm package, resolved from the working directory and then from this
 *    package: its native binary (in the platform package it depends on), or failing that its
 *    `bin.codex` Node launcher script;
 * 4. `codex` on `PATH` (an npm-installed launcher there is swapped for its native binary).
 *
 * An explicit path or `CODEX_BIN` is a choice, not a hint: if it is unusable the search stops
 * there rather than quietly running a different codex.
 *
 * The result may be a `.js` launcher script: run it with `process.execPath` (spawnCodexAppServer
 * does). The native binary is preferred because on Node < 22.15 the launcher stays alive as a
 * parent of the real codex, so signals sent to the spawned PID would not reach codex itself.
 *
 * @throws CodexRpcError `BINARY_NOT_FOUND`, listing every place tried and why it failed.
 */
export function findCodexBinary(options: FindCodexBinaryOptions = {}): string {
  return searchCodexBinary(
    nodeStyleBinaryHost(NODE_FILE_SYSTEM, { platform: process.platform, arch: process.arch, env: options.env ?? process.env, runsNodeScripts: true }),
    {
      explicitPath: options.explicitPath,
      packageSearchFrom: options.packageSearchFrom ?? [process.cwd(), fileURLToPath(new URL(".", import.meta.url))],
      describePackageLookup: (directory) => `@openai/codex resolved from ${directory}`,
      acceptNodeLauncher: true,
      installAdvice: "Install it with `npm install @openai/codex` (or globally), set CODEX_BIN, or pass the binary's path.",
    },
  );
}

/** What the search reads the file system with. */
const NODE_FILE_SYSTEM = { statSync, accessSync, realpathSync, readFileSync, constants, join, dirname };
