import { CodexRpcError } from "@codex-rpc/core";
import { PATH_LIST_DELIMITER, joinPath, parentDirectory } from "./file-paths.js";

export interface FindCodexBinaryOptions {
  /** Use exactly this binary. When it is unusable the search fails: no silent fallback to another codex. */
  readonly explicitPath?: string;
  /**
   * Directories to look for the `@openai/codex` package from (each and its ancestors'
   * `node_modules`), in order. Default: the current working directory.
   */
  readonly packageSearchFrom?: readonly string[];
}

/** The npm platform packages `@openai/codex` depends on, by Deno's `build.os` and `build.arch`. */
const PLATFORM_TARGETS: Readonly<Record<string, { readonly packageName: string; readonly triple: string }>> = {
  "linux-x86_64": { packageName: "@openai/codex-linux-x64", triple: "x86_64-unknown-linux-musl" },
  "linux-aarch64": { packageName: "@openai/codex-linux-arm64", triple: "aarch64-unknown-linux-musl" },
  "android-x86_64": { packageName: "@openai/codex-linux-x64", triple: "x86_64-unknown-linux-musl" },
  "android-aarch64": { packageName: "@openai/codex-linux-arm64", triple: "aarch64-unknown-linux-musl" },
  "darwin-x86_64": { packageName: "@openai/codex-darwin-x64", triple: "x86_64-apple-darwin" },
  "darwin-aarch64": { packageName: "@openai/codex-darwin-arm64", triple: "aarch64-apple-darwin" },
  "windows-x86_64": { packageName: "@openai/codex-win32-x64", triple: "x86_64-pc-windows-msvc" },
  "windows-aarch64": { packageName: "@openai/codex-win32-arm64", triple: "aarch64-pc-windows-msvc" },
};

const EXECUTABLE_NAME = Deno.build.os === "windows" ? "codex.exe" : "codex";

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

  const codexBin = readEnv("CODEX_BIN");
  if (codexBin.value) {
    const problem = problemWithExecutable(codexBin.value);
    if (!problem) return codexBin.value;
    tried.push(`CODEX_BIN=${codexBin.value}: ${problem}`);
    fail("Point CODEX_BIN at an existing codex executable, or unset it to search @openai/codex and PATH.");
  }
  tried.push(`CODEX_BIN: ${codexBin.problem ?? "not set"}`);

  for (const directory of options.packageSearchFrom ?? [Deno.cwd()]) {
    const found = fromCodexPackage(directory, tried);
    if (found) return found;
  }

  const searchPath = readEnv("PATH");
  if (searchPath.problem) tried.push(`PATH: ${searchPath.problem}`);
  else {
    const found = fromSearchPath(searchPath.value ?? "", tried);
    if (found) return found;
  }

  return fail("Install it with `npm install @openai/codex`, set CODEX_BIN, or pass the binary's path as codexPath.");
}

/** An environment variable, or why it could not be read (Deno's `--allow-env` can leave it out). */
function readEnv(name: string): { value?: string | undefined; problem?: string } {
  try {
    return { value: Deno.env.get(name) };
  } catch {
    return { problem: `not readable (grant --allow-env=${name})` };
  }
}

function fromCodexPackage(directory: string, tried: string[]): string | undefined {
  const unreadable: string[] = [];
  const packageDir = findInstalledPackage("@openai/codex", directory, unreadable);
  if (!packageDir) {
    const denied = unreadable.length === 0 ? "" : `; no read access to ${unreadable.join(", ")} (grant --allow-read)`;
    tried.push(`@openai/codex in node_modules from ${directory} upwards: not installed there${denied}`);
    return undefined;
  }
  const native = nativeBinaryInPackage(packageDir);
  if (native.path) return native.path;
  tried.push(`@openai/codex at ${packageDir}: ${native.problem}`);
  return undefined;
}

/**
 * Node's node_modules lookup (each ancestor's `node_modules/<name>`), from the real path of
 * `fromDir` so pnpm's symlinked layout finds a package's siblings. Places Deno's `--allow-read`
 * does not cover are skipped and collected in `unreadable`.
 */
function findInstalledPackage(name: string, fromDir: string, unreadable: string[] = []): string | undefined {
  let directory: string;
  try {
    directory = Deno.realPathSync(fromDir);
  } catch (error) {
    if (isPermissionError(error)) unreadable.push(fromDir);
    return undefined;
  }
  for (;;) {
    const candidate = joinPath(directory, "node_modules", ...name.split("/"));
    try {
      if (Deno.statSync(joinPath(candidate, "package.json")).isFile) return Deno.realPathSync(candidate);
    } catch (error) {
      if (isPermissionError(error)) unreadable.push(candidate);
    }
    const parent = parentDirectory(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/** Deno 2 throws NotCapable (Deno 1: PermissionDenied) for what its permission flags do not cover. */
function isPermissionError(error: unknown): boolean {
  return error instanceof Error && (error.name === "NotCapable" || error.name === "PermissionDenied");
}

/** The native binary of an `@openai/codex` package: in its platform package, or vendored in the package itself. */
function nativeBinaryInPackage(packageDir: string): { path: string; problem?: undefined } | { path?: undefined; problem: string } {
  const target = PLATFORM_TARGETS[`${Deno.build.os}-${Deno.build.arch}`];
  if (!target) return { problem: `codex ships no native binary for ${Deno.build.os}-${Deno.build.arch}` };
  const candidates: string[] = [];
  // The platform package is an optional dependency; older releases vendored the binary instead.
  const platformPackageDir = findInstalledPackage(target.packageName, packageDir);
  if (platformPackageDir) candidates.push(joinPath(platformPackageDir, "vendor", target.triple, "bin", EXECUTABLE_NAME));
  candidates.push(joinPath(packageDir, "vendor", target.triple, "bin", EXECUTABLE_NAME));
  for (const candidate of candidates) {
    if (!problemWithExecutable(candidate)) return { path: candidate };
  }
  return { problem: `no native binary (its optional dependency ${target.packageName} is not installed; looked for ${candidates.join(", ")})` };
}

function fromSearchPath(searchPath: string, tried: string[]): string | undefined {
  const directories = searchPath.split(PATH_LIST_DELIMITER).filter((entry) => entry !== "");
  for (const directory of directories) {
    const candidate = joinPath(directory, EXECUTABLE_NAME);
    if (problemWithExecutable(candidate)) continue;
    return nativeBinaryBehindLauncher(candidate) ?? candidate;
  }
  tried.push(directories.length === 0 ? "PATH: empty" : `PATH: no executable ${EXECUTABLE_NAME} in any of its ${directories.length} directories`);
  return undefined;
}

/** A `codex` on PATH is usually npm's link to the `@openai/codex` launcher: prefer the binary it would run. */
function nativeBinaryBehindLauncher(candidate: string): string | undefined {
  try {
    const target = Deno.realPathSync(candidate);
    if (!/\.(?:c|m)?js$/.test(target)) return undefined;
    const packageDir = parentDirectory(parentDirectory(target));
    const manifest = JSON.parse(Deno.readTextFileSync(joinPath(packageDir, "package.json"))) as { name?: string };
    if (manifest.name !== "@openai/codex") return undefined;
    return nativeBinaryInPackage(packageDir).path;
  } catch {
    return undefined;
  }
}

/** Why `path` cannot be run, or undefined if it can. */
function problemWithExecutable(path: string): string | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    return error instanceof Error && error.name === "NotFound" ? "does not exist" : `cannot be checked (${error instanceof Error ? error.message : String(error)})`;
  }
  if (!info.isFile) return "is not a file";
  // Any execute bit: Deno has no access(2). Windows has no mode, and runs any file named .exe.
  if (info.mode !== null && (info.mode & 0o111) === 0) return "is not executable";
  return undefined;
}
