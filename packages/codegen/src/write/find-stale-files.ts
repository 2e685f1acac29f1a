import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { CodegenError } from "../util/codegen-error.js";

export interface StaleFile {
  readonly path: string;
  readonly reason: "differs" | "missing" | "unexpected";
}

/** Compares `outDir` with what generation would write; an empty list means it is up to date. */
export function findStaleFiles(outDir: string, files: ReadonlyMap<string, string>): StaleFile[] {
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) {
    throw new CodegenError("OUTPUT_NOT_GENERATED", `--out ${outDir} is a file, not a folder of generated output`);
  }
  const stale: StaleFile[] = [];
  const onDisk = new Set(existsSync(outDir) ? listFiles(outDir).map((file) => relative(outDir, file).split(sep).join("/")) : []);
  for (const [path, content] of files) {
    if (!onDisk.has(path)) stale.push({ path, reason: "missing" });
    else if (readFileSync(join(outDir, path), "utf8") !== content) stale.push({ path, reason: "differs" });
    onDisk.delete(path);
  }
  for (const path of onDisk) stale.push({ path, reason: "unexpected" });
  return stale.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}
