import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

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
