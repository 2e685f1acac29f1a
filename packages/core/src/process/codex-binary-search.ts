import { CodexRpcError } from "../errors/errors.js";

/** The npm package that holds codex's native binary for one platform, and where in it the binary is. */
export interface CodexPlatformTarget {
  readonly packageName: string;
  /** The Rust target triple: the binary is `vendor/<triple>/bin/codex` in the package. */
  readonly triple: string;
}

/** The npm platform packages `@openai/codex` depends on, by Node's platform and arch names. */
const PLATFORM_TARGETS: Readonly<Record<string, CodexPlatformTarget>> = {
  "linux-x64": { packageName: "@openai/codex-linux-x64", triple: "x86_64-unknown-linux-musl" },
  "linux-arm64": { packageName: "@openai/codex-linux-arm64", triple: "aarch64-unknown-linux-musl" },
  "android-x64": { packageName: "@openai/codex-linux-x64", triple: "x86_64-unknown-linux-musl" },
  "android-arm64": { packageName: "@openai/codex-linux-arm64", triple: "aarch64-unknown-linux-musl" },
  "darwin-x64": { packageName: "@openai/codex-darwin-x64", triple: "x86_64-apple-darwin" },
  "darwin-arm64": { packageName: "@openai/codex-darwin-arm64", triple: "aarch64-apple-darwin" },
  "win32-x64": { packageName: "@openai/codex-win32-x64", triple: "x86_64-pc-windows-msvc" },
  "win32-arm64": { packageName: "@openai/codex-win32-arm64", triple: "aarch64-pc-windows-msvc" },
};

/** The platform package and vendor directory that hold the native binary on `platform`-`arch` (Node's names), if codex ships one. */
export function codexPlatformTarget(platform: string, arch: string): CodexPlatformTarget | undefined {
  return PLATFORM_TARGETS[`${platform}-${arch}`];
}

/** Whether `path` is a JavaScript file that has to be run with Node rather than executed. */
export function isNodeScript(path: string): boolean {
  return /\.(?:c|m)?js$/.test(path);
}

/** An environment variable's value, or why it could not be read. */
export type EnvironmentLookup = { readonly value: string | undefined; readonly problem?: undefined } | { readonly value?: undefined; readonly problem: string };

/**
 * What the codex binary search needs of the runtime: the environment, the file system and path
 * arithmetic, in the runtime's own APIs. Each adapter package supplies one (Node's `node:fs`,
 * Deno's `Deno.statSync`, …); the search itself, its order and its messages, are shared.
 */
export interface CodexBinaryHost {
  /** The operating system in Node's names (`process.platform`): "linux", "darwin", "win32", … */
  readonly platform: string;
  /** The CPU in Node's names (`process.arch`): "x64", "arm64", … */
  readonly arch: string;
  /** An environment variable, or why it cannot be read (e.g. a permission the program lacks). */
  env(name: string): EnvironmentLookup;
  /** What is at `path`. @throws when it cannot be checked (the error's message is reported). */
  fileKind(path: string): "file" | "other" | "missing";
  /** Whether this program may run the file at `path` (a throw counts as no). */
  canRun(path: string): boolean;
  /** `path` with every symbolic link resolved. @throws when it does not exist or cannot be read. */
  realPath(path: string): string;
  /** @throws when the file cannot be read. */
  readTextFile(path: string): string;
  joinPath(directory: string, ...names: string[]): string;
  /** The parent directory; the root is its own parent. */
  dirname(path: string): string;
  /**
   * For a runtime with permissions (Deno): which thrown errors mean "not allowed to look", and the
   * flag that grants reading. Places it could not read are then named in the error rather than
   * passing for places where codex is not installed.
   */
  readonly permissions?: { isDenied(error: unknown): boolean; readonly grantRead: string };
}

export interface CodexBinarySearchOptions {
  /** Use exactly this binary. When it is unusable the search fails: no silent fallback to another codex. */
  readonly explicitPath?: string | undefined;
  /** Directories to look for the `@openai/codex` package from (each and its ancestors' `node_modules`), in order. */
  readonly packageSearchFrom: readonly string[];
  /** The package step as the "tried" list names it. Default: `@openai/codex in node_modules from <directory> upwards`. */
  readonly describePackageLookup?: (directory: string) => string;
  /**
   * The host runs JavaScript launchers with Node: accept the package's `bin.codex` launcher when it
   * has no native binary, keep a launcher found on PATH when its native binary is missing, and let a
   * `.js` file pass when it is readable (`canRun` decides).
   */
  readonly acceptNodeLauncher?: boolean;
  /** The last line of the error when nothing was found: how to install codex with this runtime's tools. */
  readonly installAdvice: string;
}

/**
 * Finds the codex binary, trying in order:
 * 1. `explicitPath`;
 * 2. the `CODEX_BIN` environment variable;
 * 3. the native binary of the `@openai/codex` npm package (in the platform package it depends on,
 *    or vendored in the package itself), found in `node_modules` from each of `packageSearchFrom`
 *    upwards (with `acceptNodeLauncher`, failing that its `bin.codex` launcher);
 * 4. `codex` on `PATH` (npm's link to the `@openai/codex` launcher is swapped for its native binary).
 *
 * An explicit path or `CODEX_BIN` is a choice, not a hint: if it is unusable the search stops there
 * rather than quietly running a different codex.
 *
 * @throws CodexRpcError `BINARY_NOT_FOUND`, listing every place tried and why it failed.
 */
export function searchCodexBinary(host: CodexBinaryHost, options: CodexBinarySearchOptions): string {
  return new CodexBinarySearch(host, options).run();
}

/**
 * The native binary of an `@openai/codex` package and where it looked: the platform package's
 * vendor directory, else the package's own (older releases vendored the binary).
 */
type NativeBinary = { readonly path: string; readonly problem?: undefined } | { readonly path?: undefined; readonly problem: string };

class CodexBinarySearch {
  readonly #host: CodexBinaryHost;
  readonly #options: CodexBinarySearchOptions;
  readonly #executableName: string;
  readonly #tried: string[] = [];

  constructor(host: CodexBinaryHost, options: CodexBinarySearchOptions) {
    this.#host = host;
    this.#options = options;
    this.#executableName = host.platform === "win32" ? "codex.exe" : "codex";
  }

  run(): string {
    const { explicitPath } = this.#options;
    if (explicitPath !== undefined) {
      const problem = this.#problemWithExecutable(explicitPath);
      if (!problem) return explicitPath;
      this.#tried.push(`the explicit path ${explicitPath}: ${problem}`);
      this.#fail("Pass the path of an existing codex executable, or leave it out to search CODEX_BIN, @openai/codex and PATH.");
    }

    const codexBin = this.#host.env("CODEX_BIN");
    if (codexBin.value) {
      const problem = this.#problemWithExecutable(codexBin.value);
      if (!problem) return codexBin.value;
      this.#tried.push(`CODEX_BIN=${codexBin.value}: ${problem}`);
      this.#fail("Point CODEX_BIN at an existing codex executable, or unset it to search @openai/codex and PATH.");
    }
    this.#tried.push(`CODEX_BIN: ${codexBin.problem ?? "not set"}`);

    for (const directory of this.#options.packageSearchFrom) {
      const found = this.#fromCodexPackage(directory);
      if (found) return found;
    }

    const searchPath = this.#host.env("PATH");
    if (searchPath.problem !== undefined) this.#tried.push(`PATH: ${searchPath.problem}`);
    else {
      const found = this.#fromSearchPath(searchPath.value ?? "");
      if (found) return found;
    }

    return this.#fail(this.#options.installAdvice);
  }

  #fail(advice: string): never {
    const tried = this.#tried.map((line) => `  - ${line}`).join("\n");
    throw new CodexRpcError("BINARY_NOT_FOUND", `codex binary not found. Tried, in order:\n${tried}\n${advice}`);
  }

  #fromCodexPackage(directory: string): string | undefined {
    const unreadable: string[] = [];
    const packageDir = this.#findInstalledPackage("@openai/codex", directory, unreadable);
    if (!packageDir) {
      const lookup = this.#options.describePackageLookup?.(directory) ?? `@openai/codex in node_modules from ${directory} upwards`;
      const grant = this.#host.permissions?.grantRead;
      const denied = unreadable.length === 0 ? "" : `; no read access to ${unreadable.join(", ")}${grant ? ` (grant ${grant})` : ""}`;
      this.#tried.push(`${lookup}: not installed there${denied}`);
      return undefined;
    }
    const native = this.#nativeBinaryInPackage(packageDir);
    if (native.path) return native.path;
    if (!this.#options.acceptNodeLauncher) {
      this.#tried.push(`@openai/codex at ${packageDir}: ${native.problem}`);
      return undefined;
    }
    const launcher = this.#launcherOf(packageDir);
    const launcherProblem = launcher === undefined ? undefined : this.#problemWithExecutable(launcher);
    if (launcher !== undefined && !launcherProblem) return launcher;
    const launcherNote = launcher === undefined ? "is not declared" : `${launcher} is unusable (${launcherProblem})`;
    this.#tried.push(`@openai/codex at ${packageDir}: ${native.problem}, and its bin.codex launcher ${launcherNote}`);
    return undefined;
  }

  /**
   * Node's node_modules lookup (each ancestor's `node_modules/<name>`), from the real path of
   * `fromDir` so pnpm's symlinked layout finds a package's siblings. Unlike `require.resolve` it
   * ignores NODE_PATH and global folders: which codex runs should not depend on how the caller was
   * launched. Places the host is not allowed to read are collected in `unreadable`.
   */
  #findInstalledPackage(name: string, fromDir: string, unreadable: string[] = []): string | undefined {
    const host = this.#host;
    let directory: string;
    try {
      directory = host.realPath(fromDir);
    } catch (error) {
      if (host.permissions?.isDenied(error)) unreadable.push(fromDir);
      return undefined;
    }
    for (;;) {
      const candidate = host.joinPath(directory, "node_modules", ...name.split("/"));
      try {
        if (host.fileKind(host.joinPath(candidate, "package.json")) === "file") return host.realPath(candidate);
      } catch (error) {
        if (host.permissions?.isDenied(error)) unreadable.push(candidate);
      }
      const parent = host.dirname(directory);
      if (parent === directory) return undefined;
      directory = parent;
    }
  }

  #nativeBinaryInPackage(packageDir: string): NativeBinary {
    const { platform, arch } = this.#host;
    const target = codexPlatformTarget(platform, arch);
    if (!target) return { problem: `codex ships no native binary for ${platform}-${arch}` };
    const binaryIn = (directory: string): string => this.#host.joinPath(directory, "vendor", target.triple, "bin", this.#executableName);
    const candidates: string[] = [];
    // The platform package is an optional dependency; older releases vendored the binary instead.
    const platformPackageDir = this.#findInstalledPackage(target.packageName, packageDir);
    if (platformPackageDir) candidates.push(binaryIn(platformPackageDir));
    candidates.push(binaryIn(packageDir));
    for (const candidate of candidates) {
      if (!this.#problemWithExecutable(candidate)) return { path: candidate };
    }
    return { problem: `no native binary (its optional dependency ${target.packageName} is not installed; looked for ${candidates.join(", ")})` };
  }

  /** The `bin.codex` script an `@openai/codex` package declares, if any. */
  #launcherOf(packageDir: string): string | undefined {
    try {
      const manifest = JSON.parse(this.#host.readTextFile(this.#host.joinPath(packageDir, "package.json"))) as { bin?: string | Record<string, string> };
      const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.codex;
      return bin ? this.#host.joinPath(packageDir, bin) : undefined;
    } catch {
      return undefined;
    }
  }

  #fromSearchPath(searchPath: string): string | undefined {
    const directories = searchPath.split(this.#host.platform === "win32" ? ";" : ":").filter((entry) => entry !== "");
    for (const directory of directories) {
      const candidate = this.#host.joinPath(directory, this.#executableName);
      if (this.#problemWithExecutable(candidate)) continue;
      return this.#nativeBinaryBehindLauncher(candidate) ?? candidate;
    }
    this.#tried.push(directories.length === 0 ? "PATH: empty" : `PATH: no executable ${this.#executableName} in any of its ${directories.length} directories`);
    return undefined;
  }

  /** A `codex` on PATH is usually npm's link to the `@openai/codex` launcher: prefer the binary it would run. */
  #nativeBinaryBehindLauncher(candidate: string): string | undefined {
    const host = this.#host;
    try {
      const target = host.realPath(candidate);
      if (!isNodeScript(target)) return undefined;
      const packageDir = host.dirname(host.dirname(target));
      const manifest = JSON.parse(host.readTextFile(host.joinPath(packageDir, "package.json"))) as { name?: string };
      if (manifest.name !== "@openai/codex") return undefined;
      const native = this.#nativeBinaryInPackage(packageDir).path;
      return this.#options.acceptNodeLauncher ? (native ?? target) : native;
    } catch {
      return undefined;
    }
  }

  /** Why `path` cannot be run, or undefined if it can. */
  #problemWithExecutable(path: string): string | undefined {
    let kind: "file" | "other" | "missing";
    try {
      kind = this.#host.fileKind(path);
    } catch (error) {
      return `cannot be checked (${error instanceof Error ? error.message : String(error)})`;
    }
    if (kind === "missing") return "does not exist";
    if (kind === "other") return "is not a file";
    let runnable: boolean;
    try {
      runnable = this.#host.canRun(path);
    } catch {
      runnable = false;
    }
    if (runnable) return undefined;
    return this.#options.acceptNodeLauncher && isNodeScript(path) ? "is not readable" : "is not executable";
  }
}

/** An `env` for a host whose environment is a plain record (Node's and Bun's `process.env`, or one passed in). */
export function environmentFromRecord(env: Readonly<Record<string, string | undefined>>): CodexBinaryHost["env"] {
  // Windows spells it "Path"; `process.env` does not mind the case, a plain record does.
  return (name) => ({ value: env[name] ?? (name === "PATH" ? env.Path : undefined) });
}
