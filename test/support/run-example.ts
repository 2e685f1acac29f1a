// Runs one of examples/*.mjs as a user would (`node examples/<name>.mjs`) and checks it ended well:
// exit 0, nothing on stderr. What it printed is the test's to check.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export function runExample(name: string, timeoutMs = 60_000): string {
  const file = fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));
  const run = spawnSync(process.execPath, [file], { encoding: "utf8", timeout: timeoutMs, env: { ...process.env, NO_COLOR: "1" } });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}
