import { nodeStyleBinaryHost, searchCodexBinary } from "@codex-rpc/core/process";
import { accessSync, constants, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

export interface FindCodexBinaryOptions {
  /** Use exactly this binary. When it is unusable the search fails: no silent fallback to another codex. */
  readonly explicitPath?: string;
  /** Where `CODEX_BIN` and `PATH` are read from. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Directories to look for the `@openai/codex` package from (each and its ancestors'
   * `node_modules`), in order. Default: the current working directory.
   */
  readonly packageSearchFrom?: readonly string[];
}

/**
 * Finds the codex binary, trying in order (as `@codex-rpc/stdio` does):
 * 1. `explicitPath`;
 * 2. the `CODEX_BIN` environment variable;
 * 3. the native binary of the `@openai/codex` npm package (in the platform package it depends
 *    on), found in `node_modules` from the working directory upwards;
 * 4. `codex` on `PATH` (npm's link to the `@openai/codex` launcher is swapped for its native binary).
 *
 * An explicit path or `CODEX_BIN` is a choice, not a hint: if it is unusable the search stops
 * there rather than quietly running a different codex. Unlike on Node, the package's JavaScript
 * launcher is no fallback: it would stand between codex and our signals.
 *
 * @throws CodexRpcError `BINARY_NOT_FOUND`, listing every place tried and why it failed.
 */
export function findCodexBinary(options: FindCodexBinaryOptions = {}): string {
  return searchCodexBinary(
    nodeStyleBinaryHost(BUN_FILE_SYSTEM, { platform: process.platform, arch: process.arch, env: options.env ?? process.env, runsNodeScripts: false }),
    {
      explicitPath: options.explicitPath,
      packageSearchFrom: options.packageSearchFrom ?? [process.cwd()],
      installAdvice: "Install it with `bun add @openai/codex` (or npm), set CODEX_BIN, or pass the binary's path as codexPath.",
    },
  );
}

/** What the search reads the file system with: the `node:fs` and `node:path` Bun implements. */
const BUN_FILE_SYSTEM = { statSync, accessSync, realpathSync, readFileSync, constants, join, dirname };
