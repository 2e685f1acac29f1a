// The release's publish step against a local registry (test/packed/global-setup.ts ran it): the dry
// run first, which lists every public package with its version and tarball size and publishes
// nothing, then the publish, after which the registry serves every package at its version with
// the real ranges in place of `workspace:` and provenance configured.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { publicPackages } from "../../tools/check-package-metadata.mjs";
import { registryEnv } from "./consumer.js";

const root = join(import.meta.dirname, "..", "..");
const manifests = publicPackages(root).map((dir: string) => JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")));
const rowOf = (table: string, name: string) => table.split("\n").find((line) => line.startsWith(`| ${name} `)) ?? "";
const npm = (args: string[]) => spawnSync("npm", args, { encoding: "utf8", env: { ...process.env, ...registryEnv() } });

describe("release:publish against a local registry", () => {
  it("the dry run lists every public package with its version and tarball size and publishes nothing", () => {
    const table = process.env.CODEX_RPC_TEST_DRY_RUN ?? "";
    expect(table).toContain("dry run →");
    for (const manifest of manifests)
      expect(rowOf(table, manifest.name)).toMatch(new RegExp(`\\| ${manifest.version.replaceAll(".", "\\.")} +\\| [\\d.]+ kB +\\| \\d+ +\\| would publish`));
  });

  it("the publish puts every package on the registry, in dependency order, with ranges in place of workspace:", () => {
    const table = process.env.CODEX_RPC_TEST_PUBLISHED ?? "";
    const order = manifests.map((manifest: { name: string }) => table.indexOf(`| ${manifest.name} `));
    expect(order.every((index: number) => index > 0)).toBe(true);
    expect(table.indexOf("@codex-rpc/protocol")).toBeLessThan(table.indexOf("@codex-rpc/core"));
    expect(table.indexOf("@codex-rpc/core")).toBeLessThan(table.indexOf("@codex-rpc/stdio"));
    for (const manifest of manifests) {
      expect(rowOf(table, manifest.name)).toContain("published");
      const view = npm(["view", `${manifest.name}@${manifest.version}`, "--json"]);
      expect(view.status, view.stderr).toBe(0);
      const published = JSON.parse(view.stdout);
      expect(published.version).toBe(manifest.version);
      expect(JSON.stringify([published.dependencies, published.peerDependencies])).not.toContain("workspace:");
      expect(published.repository.directory).toBe(manifest.repository.directory);
    }
    const core = JSON.parse(npm(["view", `@codex-rpc/core@${manifests.find((m: { name: string }) => m.name === "@codex-rpc/core").version}`, "--json"]).stdout);
    expect(core.peerDependencies).toEqual({ rxjs: "^7.6.0" });
    expect(core.dependencies["@codex-rpc/protocol"]).toMatch(/^~\d+\.\d+\.\d+$/);
  });

  it("a second publish of the same versions skips them (a re-run after a partial failure publishes only what is missing)", () => {
    const output = execFileSync(
      process.execPath,
      [
        join(root, "tools", "release-publish.mjs"),
        "--registry",
        registryEnv().npm_config_registry ?? "",
        "--dry-run",
        "--out",
        process.env.CODEX_RPC_TEST_TARBALLS ?? "",
        "--reuse",
      ],
      {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, ...registryEnv() },
      },
    );
    for (const manifest of manifests) expect(rowOf(output, manifest.name)).toContain("already published: skipped");
  }, 120_000);
});
