#!/usr/bin/env node
// Removes from a package's dist/ what no longer has a source in src/ (a file that moved or was
// deleted), after tsc has written the new output. Emptying dist/ before tsc instead would leave a
// window in which packages built in parallel by turbo find no declarations at all.
//
// Usage (from a package folder): node ../../tools/prune-stale-dist.mjs
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

const OUTPUT = /(\.d\.ts\.map|\.d\.ts|\.js\.map|\.js)$/;

function prune(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      prune(path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
      continue;
    }
    const source = join("src", relative("dist", path)).replace(OUTPUT, ".ts");
    if (OUTPUT.test(entry.name) && !existsSync(source)) rmSync(path);
  }
}

if (existsSync("dist")) prune("dist");
