// `pnpm changeset` and `pnpm release:version` on this Node (20 in CI; @changesets/cli 2.29.7, as 3
// needs Node 22.11): in a copy of the workspace's manifests and .changeset/ (in a git repository of
// its own, as changesets reads commits for the changelog), a patch changeset to core bumps the whole
// fixed family one patch, writes the changelogs, leaves the protocol package alone and bumps nothing
// to a major (no peer range of the family leaves its range).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const copy = mkdtempSync(join(tmpdir(), "codex-rpc-release-version-"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const manifest = (dir: string) => JSON.parse(readFileSync(join(copy, "packages", dir, "package.json"), "utf8"));
const changeset = (...args: string[]) =>
  execFileSync(process.execPath, [join(root, "node_modules", "@changesets", "cli", "bin.js"), ...args], {
    cwd: copy,
    encoding: "utf8",
    env: { ...process.env, CI: "true" },
  });

it("release:version bumps the fixed family together and writes changelogs; changeset add runs on this Node", () => {
  for (const file of ["package.json", "pnpm-workspace.yaml"]) cpSync(join(root, file), join(copy, file));
  // The configuration, not the changesets pending in the repository: they would add their own bumps.
  mkdirSync(join(copy, ".changeset"));
  for (const file of ["config.json", "README.md"]) cpSync(join(root, ".changeset", file), join(copy, ".changeset", file));
  for (const dir of readdirSync(join(root, "packages"))) {
    mkdirSync(join(copy, "packages", dir), { recursive: true });
    for (const file of ["package.json", "CHANGELOG.md"])
      if (existsSync(join(root, "packages", dir, file))) cpSync(join(root, "packages", dir, file), join(copy, "packages", dir, file));
  }
  for (const dir of ["test/support", "tools/bench"]) cpSync(join(root, dir, "package.json"), join(copy, dir, "package.json"), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: copy, encoding: "utf8" });
  git("init", "-q", "-b", "main");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "start");

  const before = manifest("core").version as string;
  const protocolBefore = manifest("protocol").version as string;
  changeset("add", "--empty");
  writeFileSync(join(copy, ".changeset", "a-fix.md"), '---\n"@codex-rpc/core": patch\n---\n\nA fix in core.\n');
  changeset("version");

  const [major, minor, patch] = before.split(".").map(Number);
  const next = `${major}.${minor}.${(patch ?? 0) + 1}`;
  for (const dir of ["core", "stdio", "deno", "bun", "websocket", "relay", "testing", "effect", "codegen"])
    expect(`${dir}@${manifest(dir).version}`).toBe(`${dir}@${next}`);
  expect(manifest("protocol").version).toBe(protocolBefore);
  expect(manifest("stdio").dependencies["@codex-rpc/core"]).toBe("workspace:^");
  const changelog = readFileSync(join(copy, "packages", "core", "CHANGELOG.md"), "utf8");
  expect(changelog).toMatch(new RegExp(`## ${next.replaceAll(".", "\\.")}\\n\\n### Patch Changes\\n\\n- (?:[0-9a-f]{7}: )?A fix in core\\.`));
  expect(readFileSync(join(copy, "packages", "stdio", "CHANGELOG.md"), "utf8")).toContain(`## ${next}`);
  expect(readdirSync(join(copy, ".changeset")).filter((name) => name.endsWith(".md") && name !== "README.md")).toEqual([]);
}, 60_000);
