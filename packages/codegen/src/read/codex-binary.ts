import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CodegenError } from "../util/codegen-error.js";

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

/** Installs `@openai/codex@<version>` from npm into a temporary directory; `dispose` removes it. */
export function installCodex(version: string): { binary: string; dispose(): void } {
  if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) throw new CodegenError("USAGE", `--codex-version takes a version such as 0.169.0, not "${version}"`);
  const dir = mkdtempSync(join(tmpdir(), "codex-rpc-gen-codex-"));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "codex-rpc-gen-codex", private: true }));
  const npm = spawnSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", `@openai/codex@${version}`], {
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  const binary = npm.status === 0 ? codexBinaryIn(join(dir, "node_modules")) : undefined;
  if (!binary) {
    dispose();
    const why = npm.error?.message ?? (npm.status === 0 ? "the package holds no codex binary for this platform" : tail(npm.stderr));
    throw new CodegenError("CODEX_EXPORT_FAILED", `could not install @openai/codex@${version}: ${why}`);
  }
  return { binary, dispose };
}

export function tail(text: string | null | undefined, lines = 5): string {
  return (text ?? "").trim().split("\n").slice(-lines).join("\n");
}
