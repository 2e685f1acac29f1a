import { chmodSync, lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * Removes what interrupted runs left in `dir`: the folders whose whole name matches `pattern` (its
 * first group a pid) and whose process is gone. Nothing else: not a file or link, not a name that
 * merely starts like one, not a live (or unknowable) process's. Best effort: a folder that cannot be
 * read or removed is left as it is.
 */
export function removeLeftovers(dir: string, pattern: RegExp): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    const path = join(dir, name);
    try {
      if (!lstatSync(path).isDirectory()) continue;
      chmodSync(path, 0o700); // a read-only output's moved-away folder keeps its mode
      rmSync(path, { recursive: true, force: true });
    } catch {
      // left for a later run
    }
  }
}

/** Whether a process with this pid exists (EPERM: it does, someone else's). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** A RegExp matching `text` literally. */
export function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
