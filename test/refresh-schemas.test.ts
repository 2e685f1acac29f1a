// `node tools/refresh-schemas.mjs <version>` for a codex version npm does not have (not released
// yet, a typo) says so in one line and changes nothing, instead of a stack trace from npm install.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

it("an unpublished codex version fails with a clear message, no stack trace, nothing written", () => {
  const run = spawnSync(process.execPath, [join(root, "tools", "refresh-schemas.mjs"), "0.0.999"], { encoding: "utf8", timeout: 60_000 });
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/^refresh-schemas: @openai\/codex@0\.0\.999 (is not on the npm registry|\w+)/m);
  expect(run.stderr).toContain("nothing changed");
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(existsSync(join(root, "schemas", "codex", "0.0.999"))).toBe(false);
}, 60_000);
