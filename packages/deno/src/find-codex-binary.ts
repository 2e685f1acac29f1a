import { searchCodexBinary, type CodexBinaryHost, type EnvironmentLookup } from "@codex-rpc/core/process";
import { joinPath, parentDirectory } from "./file-paths.js";

export interface FindCodexBinaryOptions {
  /** Use exactly this binary. When it is unusable the search fails: no silent fallback to another codex. */
  readonly explicitPath?: string;
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
 * launcher is no fallback: it needs Node, and it would stand between codex and our signals.
 *
 * Needs `--allow-read` (files are checked) and `--allow-env=CODEX_BIN,PATH`; without the latter
 * those two places are reported as unreadable and skipped.
 *
 * @throws CodexRpcError `BINARY_NOT_FOUND`, listing every place tried and why it failed.
 */
export function findCodexBinary(options: FindCodexBinaryOptions = {}): string {
  return searchCodexBinary(DENO_HOST, {
    explicitPath: options.explicitPath,
    packageSearchFrom: options.packageSearchFrom ?? [Deno.cwd()],
    installAdvice: "Install it with `npm install @openai/codex`, set CODEX_BIN, or pass the binary's path as codexPath.",
  });
}

/** Deno's `build.os` and `build.arch` where Node (and so codex's platform packages) names them differently. */
const NODE_PLATFORM_NAMES: Readonly<Record<string, string>> = { windows: "win32" };
const NODE_ARCH_NAMES: Readonly<Record<string, string>> = { x86_64: "x64", aarch64: "arm64" };

/** The search's view of Deno: its own file APIs, under its permissions. */
const DENO_HOST: CodexBinaryHost = {
  platform: NODE_PLATFORM_NAMES[Deno.build.os] ?? Deno.build.os,
  arch: NODE_ARCH_NAMES[Deno.build.arch] ?? Deno.build.arch,
  env: readEnv,
  fileKind: (path) => {
    try {
      return Deno.statSync(path).isFile ? "file" : "other";
    } catch (error) {
      if (error instanceof Error && error.name === "NotFound") return "missing";
      throw error;
    }
  },
  // Any execute bit: Deno has no access(2). Windows has no mode, and runs any file named .exe.
  canRun: (path) => {
    const mode = Deno.statSync(path).mode;
    return mode === null || (mode & 0o111) !== 0;
  },
  realPath: (path) => Deno.realPathSync(path),
  readTextFile: (path) => Deno.readTextFileSync(path),
  joinPath,
  dirname: parentDirectory,
  permissions: { isDenied: isPermissionError, grantRead: "--allow-read" },
};

/** An environment variable, or why it could not be read (Deno's `--allow-env` can leave it out). */
function readEnv(name: string): EnvironmentLookup {
  try {
    return { value: Deno.env.get(name) };
  } catch {
    return { problem: `not readable (grant --allow-env=${name})` };
  }
}

/** Deno 2 throws NotCapable (Deno 1: PermissionDenied) for what its permission flags do not cover. */
function isPermissionError(error: unknown): boolean {
  return error instanceof Error && (error.name === "NotCapable" || error.name === "PermissionDenied");
}
