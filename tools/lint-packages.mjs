#!/usr/bin/env node
// Checks every published package as a user would get it: its metadata (tools/check-package-metadata.mjs:
// repository, engines, LICENSE, provenance, dependency ranges and peers, README links that work on
// npm), then publint (package.json, exports, files) and are-the-types-wrong on the packed tarball
// (ESM-only profile). Run after a build.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { checkPackageMetadata, publicPackages } from "./check-package-metadata.mjs";

const root = join(import.meta.dirname, "..");
const problems = checkPackageMetadata(root);
if (problems.length > 0) {
  console.error(`package metadata: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
const packages = publicPackages(root);
console.log(`package metadata: ${packages.length} packages agree with the root package.json`);
for (const name of packages) {
  const dir = join(root, "packages", name);
  console.log(`\n# ${name}`);
  execFileSync("publint", [dir], { stdio: "inherit" });
  execFileSync("attw", ["--pack", dir, "--profile", "esm-only"], { stdio: "inherit" });
}
console.log(`\n${packages.length} packages checked: ${packages.join(", ")}`);
