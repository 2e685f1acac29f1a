import { CodexRpcError } from "@codex-rpc/core";
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

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

/** The npm platform packages `@openai/codex` depends on, by platform and arch (Bun reports Node's names). */
const PLATFORM_TARGETS: Readonly<Record<string, { readonly packageName: string; readonly triple: string }>> = {
  "linux-x64": { packageName: "@openai/codex-linux-x64", triple: "x86_64-unknown-linux-musl" },
  "linux-arm64": { packageName: "@openai/codex-linux-arm64", triple: "aarch64-unknown-linux-musl" },
  "android-x64": { packageName: "@openai/codex-linux-x64", triple: "x86_64-unknown-linux-musl" },
  "android-arm64": { packageName: "@openai/codex-linux-arm64", triple: "aarch64-unknown-linux-musl" },
  "darwin-x64": { packageName: "@openai/codex-darwin-x64", triple: "x86_64-apple-darwin" },
  "darwin-arm64": { packageName: "@openai/codex-darwin-arm64", triple: "aarch64-apple-darwin" },
  "win32-x64": { packageName: "@openai/codex-win32-x64", triple: "x86_64-pc-windows-msvc" },
  "win32-arm64": { packageName: "@openai/codex-win32-arm64", triple: "aarch64-pc-windows-msvc" },
};

const EXECUTABLE_NAME = process.platform === "win32" ? "codex.exe" : "codex";

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
  const env = options.env ?? process.env;
  const tried: string[] = [];
  const fail = (advice: string): never => {
    throw new CodexRpcError("BINARY_NOT_FOUND", `codex binary not found. Tried, in order:\n${tried.map((line) => `  - ${line}`).join("\n")}\n${advice}`);
  };

  if (options.explicitPath !== undefined) {
    const problem = problemWithExecutable(options.explicitPath);
    if (!problem) return options.explicitPath;
    tried.push(`the explicit path ${options.explicitPath}: ${problem}`);
    fail("Pass the path of an existing codex executable, or leave it out to search CODEX_BIN, @openai/codex and PATH.");
  }

  const codexBin = env["CODEX_BIN"];
  if (codexBin) {
    const problem = problemWithExecutable(codexBin);
    if (!problem) return codexBin;
    tried.push(`CODEX_BIN=${codexBin}: ${problem}`);
    fail("Point CODEX_BIN at an existing codex executable, or unset it to search @openai/codex and PATH.");
  }
  tried.push("CODEX_BIN: not set");

  for (const directory of options.packageSearchFrom ?? [process.cwd()]) {
    const found = fromCodexPackage(directory, tried);
    if (found) return found;
  }

  const fromPath = fromSearchPath(env["PATH"] ?? env["Path"] ?? "", tried);
  if (fromPath) return fromPath;

  return fail("Install it with `bun add @openai/codex` (or npm), set CODEX_BIN, or pass the binary's path as codexPath.");
}

function fromCodexPackage(directory: string, tried: string[]): string | undefined {
  const packageDir = findInstalledPackage("@openai/codex", directory);
  if (!packageDir) {
    tried.push(`@openai/codex in node_modules from ${directory} upwards: not installed there`);
    return undefined;
  }
  const native = nativeBinaryInPackage(packageDir);
  if (native.path) return native.path;
  tried.push(`@openai/codex at ${packageDir}: ${native.problem}`);
  return undefined;
}

/**
 * Node's node_modules lookup (each ancestor's `node_modules/<name>`), from the real path of
 * `fromDir` so pnpm's symlinked layout finds a package's siblings.
 */
function findInstalledPackage(name: string, fromDir: string): string | undefined {
  let directory: string;
  try {
    directory = realpathSync(fromDir);
  } catch {
    return undefined;
  }
  for (;;) {
    const candidate = join(directory, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/** The native binary of an `@openai/codex` package: in its platform package, or vendored in the package itself. */
function nativeBinaryInPackage(packageDir: string): { path: string; problem?: undefined } | { path?: undefined; problem: string } {
  const target = PLATFORM_TARGETS[`${process.platform}-${process.arch}`];
  if (!target) return { problem: `codex ships no native binary for ${process.platform}-${process.arch}` };
  const candidates: string[] = [];
  // The platform package is an optional dependency; older releases vendored the binary instead.
  const platformPackageDir = findInstalledPackage(target.packageName, packageDir);
  if (platformPackageDir) candidates.push(join(platformPackageDir, "vendor", target.triple, "bin", EXECUTABLE_NAME));
  candidates.push(join(packageDir, "vendor", target.triple, "bin", EXECUTABLE_NAME));
  for (const candidate of candidates) {
    if (!problemWithExecutable(candidate)) return { path: candidate };
  }
  return { problem: `no native binary (its optional dependency ${target.packageName} is not installed; looked for ${candidates.join(", ")})` };
}

function fromSearchPath(searchPath: string, tried: string[]): string | undefined {
  const directories = searchPath.split(delimiter).filter((entry) => entry !== "");
  for (const directory of directories) {
    const candidate = join(directory, EXECUTABLE_NAME);
    if (problemWithExecutable(candidate)) continue;
    return nativeBinaryBehindLauncher(candidate) ?? candidate;
  }
  tried.push(directories.length === 0 ? "PATH: empty" : `PATH: no executable ${EXECUTABLE_NAME} in any of its ${directories.length} directories`);
  return undefined;
}

/** A `codex` on PATH is usually npm's link to the `@openai/codex` launcher: prefer the binary it would run. */
function nativeBinaryBehindLauncher(candidate: string): string | undefined {
  try {
    const target = realpathSync(candidate);
    if (!/\.(?:c|m)?js$/.test(target)) return undefined;
    const packageDir = dirname(dirname(target));
    const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { name?: string };
    if (manifest.name !== "@openai/codex") return undefined;
    return nativeBinaryInPackage(packageDir).path;
  } catch {
    return undefined;
  }
}

/** Why `path` cannot be run, or undefined if it can. */
function problemWithExecutable(path: string): string | undefined {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    return "does not exist";
  }
  if (!isFile) return "is not a file";
  try {
    accessSync(path, process.platform === "win32" ? constants.R_OK : constants.X_OK);
  } catch {
    return "is not executable";
  }
  return undefined;
}
