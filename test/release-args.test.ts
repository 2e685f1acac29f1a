// `pnpm release:publish -- --dry-run`: pnpm 12 passes the `--` on, and a parser that took what
// follows it as positionals published for real (found in review). The dry run must hold in every
// spelling, and an argument that is not an option must stop the script before it packs anything.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { parseReleaseArgs } from "../tools/support/release-args.mjs";

const root = join(import.meta.dirname, "..");

it("keeps --dry-run after the `--` pnpm passes on", () => {
  expect(parseReleaseArgs(["--", "--dry-run"]).dryRun).toBe(true);
  expect(parseReleaseArgs(["--dry-run"]).dryRun).toBe(true);
  expect(parseReleaseArgs(["--", "--dry-run", "--registry", "http://127.0.0.1:4873/"])).toEqual({
    dryRun: true,
    registry: "http://127.0.0.1:4873/",
    out: undefined,
    reuse: false,
  });
  expect(parseReleaseArgs([]).dryRun).toBe(false);
});

it("refuses an argument that is not an option instead of ignoring it", () => {
  expect(() => parseReleaseArgs(["dry-run"])).toThrow(/not an option: "dry-run"/);
  expect(() => parseReleaseArgs(["--", "--", "--dry-run"])).toThrow(/not an option: "--dry-run"/);
  const run = spawnSync(process.execPath, [join(root, "tools", "release-publish.mjs"), "--", "--", "--dry-run"], { encoding: "utf8" });
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/release-publish: not an option/);
  expect(run.stdout).toBe("");
});
