#!/usr/bin/env node
// Installs the runtimes the cross-runtime tests run under — bun, deno and node 22, exactly pinned —
// and the older codex releases the conformance suite also runs against (codex 0.166.0, next to the
// 0.169.0 that package.json pins) from the npm registry into .runtimes/, and records where their
// binaries are in .runtimes/runtimes.json (read by test/support/runtimes.ts).
//
// - Fast when nothing changed: if every binary answers `--version` with its pinned version, it
//   installs nothing; otherwise it reinstalls all three runtimes from scratch (about 10 s), and
//   each codex release that is not right on its own (one npm install of ~170 MB each).
// - Non-interactive (CI=true, no stdin): npm is run with stdin closed and nothing to confirm.
// - Puts nothing on anyone's PATH: .runtimes/node_modules/.bin is not a folder pnpm scripts
//   search, so the node 22 installed here never shadows the node that runs the repository.
//
// Usage: node tools/install-runtimes.mjs

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const runtimesDir = join(repositoryRoot, ".runtimes");
const modulesDir = join(runtimesDir, "node_modules");
const manifestPath = join(runtimesDir, "runtimes.json");
const onWindows = process.platform === "win32";

/**
 * Each runtime: the npm package and version, where its installed binary ends up, and how to read
 * the version it reports. All three ship the real binary in a per-platform package and copy or
 * link it into place from an install script (bun, deno: postinstall; node: a preinstall that runs
 * `npm install node-<platform>-<arch>`); before that script runs, bun's binary is a stub that only
 * prints an error.
 */
const RUNTIMES = [
  {
    name: "bun",
    packageName: "bun",
    version: "1.4.5",
    binary: join("bun", "bin", "bun.exe"), // the package names it .exe on every platform
    reportedVersion: (output) => output.trim(),
  },
  {
    name: "deno",
    packageName: "deno",
    version: "2.9.6",
    binary: join("deno", onWindows ? "deno.exe" : "deno"),
    reportedVersion: (output) => /^deno (\S+)/m.exec(output)?.[1],
  },
  {
    name: "node22",
    packageName: "node",
    version: "22.23.3",
    binary: onWindows ? join("node", "bin", "node.exe") : join("node", "bin", "node"),
    reportedVersion: (output) => /^v(\S+)/.exec(output.trim())?.[1],
  },
];

/**
 * codex releases the conformance suite runs besides the pinned one (test/conformance.runtime.test.ts), each
 * in its own npm prefix, .runtimes/codex-<version>/, so reinstalling the runtimes above never
 * throws one away, and recorded in the manifest as `codex-<version>`.
 */
const CODEX_RELEASES = ["0.166.0"];

/**
 * The npm platform package and Rust target triple holding codex's native binary, by Node's platform
 * and arch: the lookup findCodexBinary does (packages/core/src/codex-binary-search.ts), repeated
 * here because this script runs before the packages are built.
 */
const CODEX_PLATFORM_TARGETS = {
  "linux-x64": ["@openai/codex-linux-x64", "x86_64-unknown-linux-musl"],
  "linux-arm64": ["@openai/codex-linux-arm64", "aarch64-unknown-linux-musl"],
  "darwin-x64": ["@openai/codex-darwin-x64", "x86_64-apple-darwin"],
  "darwin-arm64": ["@openai/codex-darwin-arm64", "aarch64-apple-darwin"],
  "win32-x64": ["@openai/codex-win32-x64", "x86_64-pc-windows-msvc"],
  "win32-arm64": ["@openai/codex-win32-arm64", "aarch64-pc-windows-msvc"],
};

const codexReleaseDir = (version) => join(runtimesDir, `codex-${version}`);

/**
 * The native binary of the codex release installed in its prefix: in the platform package (an
 * optional dependency of @openai/codex), else vendored in @openai/codex itself (older releases).
 */
function codexReleaseBinary(version) {
  const target = CODEX_PLATFORM_TARGETS[`${process.platform}-${process.arch}`];
  if (!target) return undefined;
  const [platformPackage, triple] = target;
  const modules = join(codexReleaseDir(version), "node_modules");
  const executable = onWindows ? "codex.exe" : "codex";
  return [join(modules, ...platformPackage.split("/")), join(modules, "@openai", "codex")]
    .map((packageDir) => join(packageDir, "vendor", triple, "bin", executable))
    .find((path) => existsSync(path));
}

/** Why the installed codex release is not usable, or undefined when it is. */
function problemWithCodex(version) {
  const manifest = join(codexReleaseDir(version), "node_modules", "@openai", "codex", "package.json");
  if (!existsSync(manifest)) return "not installed";
  const installed = JSON.parse(readFileSync(manifest, "utf8")).version;
  if (installed !== version) return `package ${installed} installed, ${version} wanted`;
  const binary = codexReleaseBinary(version);
  if (!binary) return `no native binary for ${process.platform}-${process.arch} in ${relative(repositoryRoot, codexReleaseDir(version))}`;
  const result = spawnSync(binary, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
  if (result.error) return `${relative(repositoryRoot, binary)} does not run: ${result.error.message}`;
  const reported = result.status === 0 ? /^codex-cli (\S+)/m.exec(result.stdout)?.[1] : undefined;
  if (reported !== version)
    return `${relative(repositoryRoot, binary)} --version says ${JSON.stringify(`${result.stdout}${result.stderr}`.trim().split("\n")[0])}, expected codex-cli ${version}`;
  return undefined;
}

/** Installs each codex release that is missing or broken, from scratch, into its own prefix. */
function installCodexReleases() {
  for (const version of CODEX_RELEASES) {
    const problem = problemWithCodex(version);
    if (!problem) continue;
    console.log(`install-runtimes: @openai/codex@${version}: ${problem}`);
    const dir = codexReleaseDir(version);
    rmSync(dir, { recursive: true, force: true });
    // No install scripts to run: the binary comes in the optional dependency npm picks for this platform.
    run(
      "npm",
      [
        "install",
        "--prefix",
        dir,
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--loglevel=error",
        `@openai/codex@${version}`,
      ],
      repositoryRoot,
    );
    const still = problemWithCodex(version);
    if (still) throw new Error(`@openai/codex@${version} still not usable after installing: ${still}`);
    console.log(`install-runtimes: installed @openai/codex@${version} into ${relative(repositoryRoot, dir)}/`);
  }
}

/** Why the installed runtime is not the pinned one, or undefined when it is. */
function problemWith(runtime) {
  const manifest = join(modulesDir, runtime.packageName, "package.json");
  if (!existsSync(manifest)) return "not installed";
  const installed = JSON.parse(readFileSync(manifest, "utf8")).version;
  if (installed !== runtime.version) return `package ${installed} installed, ${runtime.version} pinned`;
  const binary = join(modulesDir, runtime.binary);
  if (!existsSync(binary)) return `no binary at ${relative(repositoryRoot, binary)}`;
  const result = spawnSync(binary, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 });
  if (result.error) return `${relative(repositoryRoot, binary)} does not run: ${result.error.message}`;
  const reported = result.status === 0 ? runtime.reportedVersion(result.stdout) : undefined;
  if (reported !== runtime.version) {
    const said = `${result.stdout}${result.stderr}`.trim().split("\n")[0];
    return `${relative(repositoryRoot, binary)} --version says ${JSON.stringify(said)}, expected ${runtime.version}`;
  }
  return undefined;
}

function run(command, args, cwd) {
  // npm is npm.cmd on Windows, which only runs through a shell.
  const result = spawnSync(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"], shell: onWindows });
  if (result.error) throw new Error(`${command} ${args.join(" ")} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} (in ${cwd}) failed with ${result.signal ?? `exit code ${result.status}`}`);
}

/**
 * Runs a package's install lifecycle scripts ourselves: whether npm runs them depends on its
 * version and configuration (ignore-scripts, npm 11's allow-scripts approvals), and without them
 * the binaries are missing. They are what npm itself would run, from the package's folder.
 */
function runInstallScripts(runtime) {
  const packageDir = join(modulesDir, runtime.packageName);
  const { scripts = {} } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  for (const stage of ["preinstall", "install", "postinstall"]) {
    const script = scripts[stage];
    if (!script) continue;
    console.log(`install-runtimes: ${runtime.packageName}@${runtime.version} ${stage}: ${script}`);
    const result = spawnSync(script, { cwd: packageDir, stdio: ["ignore", "inherit", "inherit"], shell: true });
    if (result.status !== 0)
      throw new Error(`${runtime.packageName}@${runtime.version} ${stage} (${script}) failed with ${result.signal ?? `exit code ${result.status}`}`);
  }
}

function writeManifest() {
  // Paths relative to .runtimes/, so the checkout can move.
  const manifest = Object.fromEntries([
    ...RUNTIMES.map((runtime) => [runtime.name, { version: runtime.version, path: join("node_modules", runtime.binary).split("\\").join("/") }]),
    ...CODEX_RELEASES.flatMap((version) => {
      const binary = codexReleaseBinary(version);
      return binary ? [[`codex-${version}`, { version, path: relative(runtimesDir, binary).split("\\").join("/") }]] : [];
    }),
  ]);
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  if (!existsSync(manifestPath) || readFileSync(manifestPath, "utf8") !== text) writeFileSync(manifestPath, text);
}

function main() {
  installCodexReleases();
  const stale = RUNTIMES.map((runtime) => ({ runtime, problem: problemWith(runtime) })).filter(({ problem }) => problem);
  if (stale.length === 0) {
    writeManifest();
    console.log(
      `install-runtimes: up to date (${[...RUNTIMES.map((r) => `${r.packageName}@${r.version}`), ...CODEX_RELEASES.map((v) => `@openai/codex@${v}`)].join(", ")})`,
    );
    return;
  }
  for (const { runtime, problem } of stale) console.log(`install-runtimes: ${runtime.packageName}@${runtime.version}: ${problem}`);

  // From an empty folder, all three at once. The install scripts move files npm does not know
  // about (bun moves its binary out of @oven/bun-<platform>, node installs a nested package), so
  // npm re-run over such a tree re-extracts the stubs and prunes the nested package, and bun can
  // then only recover by downloading itself again. Scripts run below, by us.
  rmSync(modulesDir, { recursive: true, force: true });
  rmSync(manifestPath, { force: true }); // written again once every binary has been checked
  run(
    "npm",
    [
      "install",
      "--prefix",
      runtimesDir,
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      ...RUNTIMES.map((runtime) => `${runtime.packageName}@${runtime.version}`),
    ],
    repositoryRoot,
  );
  for (const runtime of RUNTIMES) runInstallScripts(runtime);

  const broken = RUNTIMES.map((runtime) => ({ runtime, problem: problemWith(runtime) })).filter(({ problem }) => problem);
  if (broken.length > 0) {
    throw new Error(
      `runtimes still not usable after installing:\n${broken.map(({ runtime, problem }) => `  ${runtime.packageName}@${runtime.version}: ${problem}`).join("\n")}`,
    );
  }
  writeManifest();
  console.log(
    `install-runtimes: installed ${RUNTIMES.map((runtime) => `${runtime.packageName}@${runtime.version}`).join(", ")} into ${relative(repositoryRoot, runtimesDir)}/`,
  );
}

try {
  main();
} catch (error) {
  console.error(`install-runtimes: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
