import { CodexRpcError } from "@codex-rpc/core";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codexPlatformTarget, findCodexBinary } from "../src/find-codex-binary.js";

const target = codexPlatformTarget();
const exe = process.platform === "win32" ? "codex.exe" : "codex";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "codex-rpc-find-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function writeExecutable(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, "#!/bin/sh\nexit 0\n");
  chmodSync(path, 0o755);
  return path;
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

/** A project with `@openai/codex` installed the way npm lays it out: launcher + platform package. */
function fakeCodexPackage(project: string, options: { withPlatformPackage: boolean }) {
  const packageDir = join(project, "node_modules", "@openai", "codex");
  writeJson(join(packageDir, "package.json"), { name: "@openai/codex", version: "0.169.0", type: "module", bin: { codex: "bin/codex.js" } });
  const launcher = join(packageDir, "bin", "codex.js");
  mkdirSync(dirname(launcher), { recursive: true });
  writeFileSync(launcher, "#!/usr/bin/env node\n");
  chmodSync(launcher, 0o755); // npm makes bin scripts executable
  let native: string | undefined;
  if (options.withPlatformPackage && target) {
    const platformDir = join(project, "node_modules", ...target.packageName.split("/"));
    writeJson(join(platformDir, "package.json"), { name: "@openai/codex", version: "0.169.0-platform" });
    native = writeExecutable(join(platformDir, "vendor", target.triple, "bin", exe));
  }
  return { packageDir, launcher, native };
}

/** Every place findCodexBinary looks, each holding a usable codex. */
function everyPlace() {
  const explicit = writeExecutable(join(root, "explicit", exe));
  const codexBin = writeExecutable(join(root, "codex-bin", exe));
  const project = join(root, "project");
  const codexPackage = fakeCodexPackage(project, { withPlatformPackage: true });
  const pathDir = join(root, "path-bin");
  const onPath = writeExecutable(join(pathDir, exe));
  const emptyProject = join(root, "empty-project");
  mkdirSync(emptyProject);
  return { explicit, codexBin, project, codexPackage, pathDir, onPath, emptyProject };
}

describe.skipIf(!target)("findCodexBinary", () => {
  it("tries the explicit path, then CODEX_BIN, then the @openai/codex package, then PATH", () => {
    const place = everyPlace();
    const env = { CODEX_BIN: place.codexBin, PATH: place.pathDir };
    const packageSearchFrom = [place.project];

    expect(findCodexBinary({ explicitPath: place.explicit, env, packageSearchFrom })).toBe(place.explicit);
    expect(findCodexBinary({ env, packageSearchFrom })).toBe(place.codexBin);
    expect(findCodexBinary({ env: { PATH: place.pathDir }, packageSearchFrom })).toBe(place.codexPackage.native);
    expect(findCodexBinary({ env: { PATH: place.pathDir }, packageSearchFrom: [place.emptyProject] })).toBe(place.onPath);
  });

  it("searches the package directories in order", () => {
    const first = join(root, "first");
    const second = join(root, "second");
    const inSecond = fakeCodexPackage(second, { withPlatformPackage: true });
    mkdirSync(first);
    expect(findCodexBinary({ env: {}, packageSearchFrom: [first, second] })).toBe(inSecond.native);
    const inFirst = fakeCodexPackage(first, { withPlatformPackage: true });
    expect(findCodexBinary({ env: {}, packageSearchFrom: [first, second] })).toBe(inFirst.native);
  });

  it("falls back to the package's Node launcher when the platform package is missing", () => {
    const project = join(root, "project");
    const { launcher } = fakeCodexPackage(project, { withPlatformPackage: false });
    expect(findCodexBinary({ env: {}, packageSearchFrom: [project] })).toBe(launcher);
  });

  it("swaps a PATH link to the npm launcher for the native binary it would run", () => {
    const project = join(root, "global");
    const { launcher, native } = fakeCodexPackage(project, { withPlatformPackage: true });
    const pathDir = join(root, "bin");
    mkdirSync(pathDir);
    symlinkSync(launcher, join(pathDir, "codex"));
    expect(findCodexBinary({ env: { PATH: pathDir }, packageSearchFrom: [] })).toBe(native);
  });

  it("skips PATH entries that are not executable files", () => {
    const notExecutable = join(root, "a", exe);
    mkdirSync(dirname(notExecutable), { recursive: true });
    writeFileSync(notExecutable, "not executable");
    mkdirSync(join(root, "b", exe), { recursive: true }); // a directory named codex
    const real = writeExecutable(join(root, "c", exe));
    const PATH = [join(root, "a"), join(root, "b"), join(root, "c")].join(delimiter);
    expect(findCodexBinary({ env: { PATH }, packageSearchFrom: [] })).toBe(real);
  });

  it("does not fall back when the explicit path is unusable", () => {
    const place = everyPlace();
    const missing = join(root, "nope", exe);
    const error = catchError(() =>
      findCodexBinary({ explicitPath: missing, env: { CODEX_BIN: place.codexBin, PATH: place.pathDir }, packageSearchFrom: [place.project] }),
    );
    expect(error).toMatchObject({ code: "BINARY_NOT_FOUND" });
    expect(error.message).toContain(`the explicit path ${missing}: does not exist`);
  });

  it("does not fall back when CODEX_BIN is unusable", () => {
    const place = everyPlace();
    const notExecutable = join(root, "plain-file");
    writeFileSync(notExecutable, "");
    const error = catchError(() => findCodexBinary({ env: { CODEX_BIN: notExecutable, PATH: place.pathDir }, packageSearchFrom: [place.project] }));
    expect(error.message).toContain(`CODEX_BIN=${notExecutable}: is not executable`);
  });

  it("lists every place tried, and why each failed, when nothing is found", () => {
    const empty = join(root, "empty");
    mkdirSync(empty);
    const withLauncherOnly = join(root, "broken");
    const broken = fakeCodexPackage(withLauncherOnly, { withPlatformPackage: false });
    rmSync(broken.launcher);
    const error = catchError(() =>
      findCodexBinary({ env: { PATH: [join(root, "x"), join(root, "y")].join(delimiter) }, packageSearchFrom: [empty, withLauncherOnly] }),
    );
    expect(error).toBeInstanceOf(CodexRpcError);
    expect(error.code).toBe("BINARY_NOT_FOUND");
    const lines = error.message.split("\n");
    expect(lines[0]).toBe("codex binary not found. Tried, in order:");
    expect(lines[1]).toBe("  - CODEX_BIN: not set");
    expect(lines[2]).toBe(`  - @openai/codex resolved from ${empty}: not installed there`);
    expect(lines[3]).toContain(`  - @openai/codex at ${broken.packageDir}: no native binary (its optional dependency ${target!.packageName} is not installed`);
    expect(lines[3]).toContain(`its bin.codex launcher ${broken.launcher} is unusable (does not exist)`);
    expect(lines[4]).toBe(`  - PATH: no executable ${exe} in any of its 2 directories`);
    expect(lines[5]).toContain("npm install @openai/codex");
  });

  it("finds the real codex from this repository by default", () => {
    expect(findCodexBinary({ env: {} })).toMatch(new RegExp(`vendor[\\\\/]${target!.triple}[\\\\/]bin[\\\\/]${exe}$`));
  });
});

function catchError(run: () => unknown): CodexRpcError {
  try {
    run();
  } catch (error) {
    return error as CodexRpcError;
  }
  throw new Error("expected an error");
}
