import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, type Stats, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { inventoryOutput, type OutputInventory } from "../read/generated-output.js";
import { CodegenError } from "../util/codegen-error.js";
import { literal, removeLeftovers } from "../util/leftovers.js";

export interface WriteOptions {
  /** The directory the output must not be, nor hold (default: the process's). */
  readonly cwd?: string;
  /**
   * The `/`-separated paths generate is writing now: earlier output is generate's own only where it
   * is one of these (or a parent folder of one). Without them only the header/marker is checked
   * (the CLI's early check, before the schemas are read).
   */
  readonly paths?: Iterable<string>;
}

/**
 * Refuses an output directory that replacing could lose someone's files in: the current directory or
 * one of its parents (`OUTPUT_HOLDS_CWD`), a symbolic link (`OUTPUT_IS_LINK`: replacing would
 * replace the link), something that is not a directory, or a directory holding anything generate
 * would not write now (`OUTPUT_NOT_GENERATED`): a file counts as earlier output when it carries the
 * generated header (or the `codexRpcGen` marker of its `package.json`) and is one of
 * `options.paths`; a folder when it is a parent of one. An entry that cannot be read is refused too.
 * A missing or empty directory, or one of earlier output only, passes.
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
  const stat = lstatOrUndefined(out, outDir);
  if (stat === undefined) return;
  if (stat.isSymbolicLink()) {
    throw new CodegenError(
      "OUTPUT_IS_LINK",
      `${outDir} is a symbolic link (to ${realPath(out)}): generate replaces its --out directory as a whole, which would replace the link; pass the real path, e.g. --out ${realPath(out)}`,
    );
  }
  if (!stat.isDirectory()) {
    throw new CodegenError("OUTPUT_NOT_GENERATED", `${outDir} exists and is not a directory: choose an empty or new directory for --out`);
  }
  let inventory: OutputInventory;
  try {
    inventory = inventoryOutput(out, options.paths);
  } catch (cause) {
    throw new CodegenError(
      "OUTPUT_NOT_GENERATED",
      `cannot check what ${outDir} holds (${(cause as Error).message}): generate replaces its --out directory only when everything in it is its own output; fix the permissions or choose an empty or new directory`,
    );
  }
  const { notGenerated, notWrittenNow } = inventory;
  if (notGenerated.length + notWrittenNow.length === 0) return;
  const parts = [
    notGenerated.length > 0 ? `files codex-rpc-gen did not generate (${listed(notGenerated)})` : "",
    notWrittenNow.length > 0
      ? `files with codex-rpc-gen's header that it does not write (${listed(notWrittenNow)}: an older version's output, or a copy of yours; remove or move them)`
      : "",
  ].filter(Boolean);
  throw new CodegenError(
    "OUTPUT_NOT_GENERATED",
    `${outDir} holds ${parts.join(" and ")}: generate replaces its --out directory as a whole, so it writes only into a new or empty directory or over its own earlier output; choose an empty or new directory, or move or remove those files`,
  );
}

function listed(paths: readonly string[]): string {
  return paths.slice(0, 5).join(", ") + (paths.length > 5 ? ` and ${paths.length - 5} more` : "");
}

function lstatOrUndefined(path: string, shown: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CodegenError("WRITE_FAILED", `cannot check ${shown}: ${(cause as Error).message}`);
  }
}

/**
 * Replaces `outDir` with exactly `files`, after `checkOutputDirectory`. Everything is written to a
 * sibling temporary directory first and swapped in by rename, so a failure leaves the old output
 * whole, nothing half-written and no temporary directory; a filesystem error is a `WRITE_FAILED`.
 * The temporary directory is `.<out>.staging-<pid>-XXXXXX` (the previous output moves to its name +
 * `-previous`); such folders of processes that are gone (a run ended by a signal) are removed first.
 */
export function writeGeneratedFiles(outDir: string, files: ReadonlyMap<string, string>, options: WriteOptions = {}): void {
  const out = resolve(outDir);
  // A run ended by a signal leaves its staging folder (or the moved-away previous output): named with
  // its pid, it goes once that process is gone.
  removeLeftovers(dirname(out), new RegExp(`^\\.${literal(basename(out))}\\.staging-(\\d+)-[A-Za-z0-9]{6}(-previous)?$`));
  checkOutputDirectory(outDir, { ...options, paths: files.keys() });
  // The folder keeps the mode it had (mkdtemp makes 0700); a new one gets the umask's, as mkdir would.
  const mode = existsSync(out) ? lstatSync(out).mode & 0o7777 : 0o777 & ~process.umask();
  const parent = dirname(out);
  let staging: string | undefined;
  let previous: string | undefined;
  try {
    mkdirSync(parent, { recursive: true });
    staging = mkdtempSync(join(parent, `.${basename(out)}.staging-${process.pid}-`));
    for (const [path, content] of files) {
      const target = join(staging, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
    chmodSync(staging, mode); // after the writes: a read-only folder's mode would stop them
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
      chmodSync(previous, 0o700); // a read-only output's folder (its mode kept) could not be emptied
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
