import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";

export interface StaleFile {
  readonly path: string;
  readonly reason: "differs" | "missing" | "unexpected";
}

/**
 * Replaces `outDir` with exactly `files`. Everything is written to a sibling temporary directory
 * first and swapped in by rename, so a failure leaves the old output whole and nothing half-written.
 */
export function writeGeneratedFiles(outDir: string, files: ReadonlyMap<string, string>): void {
  const parent = dirname(outDir);
  mkdirSync(parent, { recursive: true });
  const staging = join(parent, `.${basename(outDir)}.staging-${process.pid}`);
  const previous = join(parent, `.${basename(outDir)}.previous-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    for (const [path, content] of files) {
      const target = join(staging, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
  } catch (cause) {
    rmSync(staging, { recursive: true, force: true });
    throw cause;
  }
  const hadOutput = existsSync(outDir);
  if (hadOutput) renameSync(outDir, previous);
  try {
    renameSync(staging, outDir);
  } catch (cause) {
    if (hadOutput) renameSync(previous, outDir);
    rmSync(staging, { recursive: true, force: true });
    throw cause;
  }
  rmSync(previous, { recursive: true, force: true });
}

/** Compares `outDir` with what generation would write; an empty list means it is up to date. */
export function findStaleFiles(outDir: string, files: ReadonlyMap<string, string>): StaleFile[] {
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
