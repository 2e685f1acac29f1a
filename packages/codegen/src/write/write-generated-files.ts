import { existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { filesNotGenerated } from "../read/generated-output.js";
import { CodegenError } from "../util/codegen-error.js";

export interface WriteOptions {
  /** The directory the output must not be, nor hold (default: the process's). */
  readonly cwd?: string;
}

/**
 * Refuses an output directory that replacing could lose someone's files in: the current directory or
 * one of its parents (`OUTPUT_HOLDS_CWD`), something that is not a directory, or a directory holding
 * any file generate did not write (`OUTPUT_NOT_GENERATED`: earlier output is recognised by the
 * generated header of each module and the `codexRpcGen` marker of its `package.json`). A missing
 * or empty directory, or one of earlier output only, passes.
 */
export function checkOutputDirectory(outDir: string, options: WriteOptions = {}): void {
  const out = resolve(outDir);
  const cwd = resolve(options.cwd ?? process.cwd());
  if (holds(out, cwd) || holds(realPath(out), realPath(cwd))) {
    throw new CodegenError(
      "OUTPUT_HOLDS_CWD",
      `${outDir} is the current directory or a parent of it: generate replaces its --out directory as a whole; give it a directory of its own, e.g. --out codex-protocol`,
    );
  }
  if (!existsSync(out)) return;
  const foreign = statSync(out).isDirectory() ? filesNotGenerated(out) : undefined;
  if (foreign === undefined) {
    throw new CodegenError("OUTPUT_NOT_GENERATED", `${outDir} exists and is not a directory: choose an empty or new directory for --out`);
  }
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 5).join(", ") + (foreign.length > 5 ? ` and ${foreign.length - 5} more` : "");
    throw new CodegenError(
      "OUTPUT_NOT_GENERATED",
      `${outDir} holds files codex-rpc-gen did not generate (${shown}): generate replaces its --out directory as a whole, so it writes only into a new or empty directory or over its own earlier output; choose an empty or new directory, or move those files out`,
    );
  }
}

/**
 * Replaces `outDir` with exactly `files`, after `checkOutputDirectory`. Everything is written to a
 * sibling temporary directory first and swapped in by rename, so a failure leaves the old output
 * whole, nothing half-written and no temporary directory; a filesystem error is a `WRITE_FAILED`.
 */
export function writeGeneratedFiles(outDir: string, files: ReadonlyMap<string, string>, options: WriteOptions = {}): void {
  checkOutputDirectory(outDir, options);
  const out = resolve(outDir);
  const parent = dirname(out);
  let staging: string | undefined;
  let previous: string | undefined;
  try {
    mkdirSync(parent, { recursive: true });
    staging = mkdtempSync(join(parent, `.${basename(out)}.staging-`));
    for (const [path, content] of files) {
      const target = join(staging, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
    if (existsSync(out)) {
      previous = `${staging}-previous`;
      renameSync(out, previous);
    }
    try {
      renameSync(staging, out);
    } catch (cause) {
      if (previous) renameSync(previous, out);
      previous = undefined;
      throw cause;
    }
    staging = undefined;
  } catch (cause) {
    if (staging) rmSync(staging, { recursive: true, force: true });
    throw cause instanceof CodegenError
      ? cause
      : new CodegenError("WRITE_FAILED", `cannot write ${outDir}: ${(cause as Error).message}; the previous output (if any) is unchanged`);
  }
  if (previous) {
    try {
      rmSync(previous, { recursive: true, force: true });
    } catch (cause) {
      throw new CodegenError("WRITE_FAILED", `wrote ${outDir}, but cannot remove the previous output moved to ${previous}: ${(cause as Error).message}`);
    }
  }
}

/** Whether `dir` is `inner` or one of its parents. */
function holds(dir: string, inner: string): boolean {
  const rel = relative(dir, inner);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
