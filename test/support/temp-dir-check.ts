// Every test removes the temporary directories it makes. This global setup gives the run a temp
// directory of its own (TMPDIR, inherited by the test workers and every process they start), so
// what another run on the machine leaves does not count, and fails the run when a test left a
// `codex-rpc-` directory in it; then removes it.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const runDir = mkdtempSync(join(tmpdir(), "vitest-run-"));
  process.env.TMPDIR = runDir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const left = readdirSync(runDir).filter((name) => name.startsWith("codex-rpc-"));
    const others = readdirSync(runDir).filter((name) => !name.startsWith("codex-rpc-"));
    rmSync(runDir, { recursive: true, force: true });
    if (others.length > 0)
      console.warn(`temp-dir check: the run also left ${others.length} other entries in the temp directory: ${others.slice(0, 10).join(", ")}`);
    if (left.length > 0) {
      // An error thrown by a global teardown is printed but does not fail the run: set the exit code.
      console.error(
        `\ntemp-dir check FAILED: tests left ${left.length} codex-rpc- directories in the temp directory (each test must remove what it makes): ${left.join(", ")}\n`,
      );
      process.exitCode = 1;
    }
  };
}
