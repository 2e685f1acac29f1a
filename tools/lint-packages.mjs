#!/usr/bin/env node
// Checks every published package as a user would get it: publint (package.json, exports, files)
// and are-the-types-wrong on the packed tarball (ESM-only profile). Run after a build.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const packagesDir = join(import.meta.dirname, "..", "packages");
const packages = readdirSync(packagesDir).filter((name) => {
  const manifest = JSON.parse(readFileSync(join(packagesDir, name, "package.json"), "utf8"));
  return manifest.private !== true;
});
for (const name of packages) {
  const dir = join(packagesDir, name);
  console.log(`\n# ${name}`);
  execFileSync("publint", [dir], { stdio: "inherit" });
  execFileSync("attw", ["--pack", dir, "--profile", "esm-only"], { stdio: "inherit" });
}
console.log(`\n${packages.length} packages checked: ${packages.join(", ")}`);
