// Temporary directories for codegen's tests, each removed after the test file that made it: the
// file that imports this registers one afterAll that removes them all (the run fails when a test
// leaves a `codex-rpc-` directory behind: test/support/temp-dir-check.ts at the repository root).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty directory in the temp directory, named `prefix` + random characters. */
export function temporaryDirectory(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
