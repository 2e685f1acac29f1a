#!/usr/bin/env node
// Vendors a codex version's schemas for generation and diffs only: runs tools/refresh-schemas.mjs
// (the one way exports are made), then keeps what `codex-rpc-gen generate` and `diff` read —
// manifest.json and the stable and experimental bundles — and drops the per-type files (the bundle
// repeats them) and the generate-ts output (only the pinned version's parity test needs it).
// manifest.json keeps the sha256 of the kept files and says how many the export had.
//
// Usage: node tools/vendor-schema-bundles.mjs <version>      (e.g. 0.166.0)
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

const BUNDLE = "codex_app_server_protocol.schemas.json";
const KEEP = ["manifest.json", `stable/${BUNDLE}`, `experimental/${BUNDLE}`];

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) {
  console.error("usage: node tools/vendor-schema-bundles.mjs <codex version, e.g. 0.166.0>");
  process.exit(2);
}
const root = resolve(import.meta.dirname, "..");
const target = join(root, "schemas", "codex", version);

execFileSync(process.execPath, [join(root, "tools", "refresh-schemas.mjs"), version], { stdio: "inherit" });

for (const file of listFiles(target)) {
  const rel = relative(target, file).split(sep).join("/");
  if (!KEEP.includes(rel)) rmSync(file);
}
for (const dir of ["typescript", "stable/v1", "stable/v2", "experimental/v1", "experimental/v2"]) {
  rmSync(join(target, dir), { recursive: true, force: true });
}
const manifestFile = join(target, "manifest.json");
const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
manifest.vendoredWith = `node tools/vendor-schema-bundles.mjs ${version}`;
manifest.exportedFiles = Object.keys(manifest.files).length;
manifest.files = Object.fromEntries(Object.entries(manifest.files).filter(([file]) => KEEP.includes(file)));
writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`kept ${KEEP.join(", ")} in ${relative(root, target)}`);

function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}
