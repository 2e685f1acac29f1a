#!/usr/bin/env node
// Vendors the protocol exports of one codex version into schemas/codex/<version>/:
//   stable/        codex app-server generate-json-schema
//   experimental/  codex app-server generate-json-schema --experimental
//   typescript/    codex app-server generate-ts (kept only as the parity-test oracle)
// plus manifest.json (version, exact commands, sha256 of every file).
//
// Usage: node tools/refresh-schemas.mjs <version>
// The binary comes from `@openai/codex@<version>` installed from npm into a temporary folder,
// so a new version is one command and never depends on what happens to be on PATH.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) {
  console.error("usage: node tools/refresh-schemas.mjs <codex version, e.g. 0.169.0>");
  process.exit(2);
}

// A version npm does not have is the common mistake (a codex release not out yet, a typo): say so
// and name the newest, rather than failing inside `npm install` with a stack trace.
const lookup = spawnSync("npm", ["view", `@openai/codex@${version}`, "version", "--json"], { encoding: "utf8" });
if (lookup.status !== 0 || lookup.stdout.trim() === "") {
  const latest = spawnSync("npm", ["view", "@openai/codex", "dist-tags.latest"], { encoding: "utf8" }).stdout.trim();
  const reason =
    lookup.status === 0 ? "is not published" : ((lookup.stdout + lookup.stderr).match(/npm error (?:code )?(E\w+)/)?.[1] ?? "could not be looked up");
  console.error(
    `refresh-schemas: @openai/codex@${version} ${reason === "E404" ? "is not on the npm registry" : reason}${latest ? ` (the newest is ${latest})` : ""}; nothing changed.\n` +
      "Pick a published version: npm view @openai/codex versions",
  );
  process.exit(1);
}

const root = resolve(import.meta.dirname, "..");
const target = join(root, "schemas", "codex", version);
const work = mkdtempSync(join(tmpdir(), "codex-schemas-"));
try {
  console.log(`installing @openai/codex@${version} into ${work}`);
  writeFileSync(join(work, "package.json"), JSON.stringify({ name: "codex-schema-refresh", private: true }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `@openai/codex@${version}`], {
    cwd: work,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const codex = join(work, "node_modules", ".bin", "codex");
  const codexHome = join(work, "codex-home");
  mkdirSync(codexHome);
  const env = { ...process.env, CODEX_HOME: codexHome, NO_COLOR: "1" };
  const reported = execFileSync(codex, ["--version"], { env, encoding: "utf8" }).trim();
  if (!reported.endsWith(version)) throw new Error(`installed binary reports "${reported}", expected ${version}`);

  const staging = join(work, "out");
  const exports = [
    { dir: "stable", args: ["app-server", "generate-json-schema", "--out"] },
    { dir: "experimental", args: ["app-server", "generate-json-schema", "--experimental", "--out"] },
    { dir: "typescript", args: ["app-server", "generate-ts", "--out"] },
  ];
  for (const { dir, args } of exports) {
    console.log(`codex ${args.join(" ")} ${dir}`);
    execFileSync(codex, [...args, join(staging, dir)], { env, stdio: ["ignore", "ignore", "pipe"] });
  }

  const files = {};
  for (const file of listFiles(staging)) {
    const rel = relative(staging, file).split(sep).join("/");
    files[rel] = createHash("sha256").update(readFileSync(file)).digest("hex");
  }
  const manifest = {
    codexVersion: version,
    binary: reported,
    package: `@openai/codex@${version}`,
    commands: Object.fromEntries(exports.map(({ dir, args }) => [dir, `codex ${args.join(" ")} ${dir}`])),
    refreshedWith: `node tools/refresh-schemas.mjs ${version}`,
    files,
  };
  writeFileSync(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);

  rmSync(target, { recursive: true, force: true });
  mkdirSync(join(root, "schemas", "codex"), { recursive: true });
  renameSync(staging, target);
  console.log(`wrote ${Object.keys(files).length} files and manifest.json to ${relative(root, target)}`);
} catch (error) {
  // A step that fails (npm, the codex binary) has said why on stderr already; no stack trace.
  console.error(`refresh-schemas: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}; nothing changed`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

function listFiles(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listFiles(path) : [path];
    });
}
