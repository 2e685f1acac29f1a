#!/usr/bin/env node
// Publishes every public package whose version is not on the registry yet: `pnpm release:publish`
// (after `pnpm release:version`), `-- --dry-run` to see what would go out. Run after a build.
//
// Each package is packed with `pnpm pack` (which turns `workspace:^` into the real ranges), printed
// with its version and tarball size, and published from that tarball with `npm publish`, in
// dependency order (protocol, core, then the rest), so a user never finds a package whose
// dependency is not out yet. Provenance comes from each package's `publishConfig.provenance`: npm
// attaches it when publishing from CI with an OIDC token (GitHub Actions `id-token: write`); a local
// registry (`--registry http://127.0.0.1:…`, the tests' verdaccio) gets `--provenance=false`, as it
// cannot check one. After a real publish, `changeset tag` tags the published versions.
//
// Usage: node tools/release-publish.mjs [--dry-run] [--registry <url>] [--out <dir> [--reuse]]
// (`--out` keeps the tarballs there; `--reuse` publishes the ones already in it instead of packing
// again: the tests pack once for the dry run and the publish.)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publicPackages } from "./check-package-metadata.mjs";
import { parseReleaseArgs } from "./support/release-args.mjs";

const root = join(import.meta.dirname, "..");
let args;
try {
  args = parseReleaseArgs(process.argv.slice(2));
} catch (error) {
  console.error(`release-publish: ${error.message}`);
  process.exit(2);
}
const dryRun = args.dryRun;
const registry = args.registry ?? "https://registry.npmjs.org/";
const localRegistry = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(registry);
const pnpm = (args, cwd) => execFileSync("npx", ["-y", "pnpm@12.21.0", ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** Public packages, each after the workspace packages it depends on. */
function inDependencyOrder() {
  const manifests = new Map(
    publicPackages(root).map((dir) => {
      const manifest = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
      return [manifest.name, { dir, manifest }];
    }),
  );
  const ordered = [];
  const visit = (name) => {
    const entry = manifests.get(name);
    if (!entry || ordered.includes(entry)) return;
    const { dependencies = {}, peerDependencies = {} } = entry.manifest;
    for (const dep of [...Object.keys(dependencies), ...Object.keys(peerDependencies)]) visit(dep);
    ordered.push(entry);
  };
  for (const name of [...manifests.keys()].sort()) visit(name);
  return ordered;
}

/** Whether the registry already has this version (a re-run publishes only what is missing). */
function published(name, version) {
  const result = spawnSync("npm", ["view", `${name}@${version}`, "version", "--registry", registry], { encoding: "utf8" });
  return result.status === 0 && result.stdout.trim() === version;
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const outDir = args.out ?? mkdtempSync(join(tmpdir(), "codex-rpc-release-"));
const rows = [];
let failed = false;
try {
  for (const { dir, manifest } of inDependencyOrder()) {
    const packed = join(outDir, `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`);
    const tarball =
      args.reuse && existsSync(packed)
        ? packed
        : pnpm(["pack", "--pack-destination", outDir], join(root, "packages", dir))
            .trim()
            .split("\n")
            .pop()
            .trim();
    const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).trim().split("\n").length;
    const already = published(manifest.name, manifest.version);
    let result = already ? "already published: skipped" : dryRun ? "would publish" : "published";
    if (!already) {
      const args = ["publish", tarball, "--access", "public", "--registry", registry];
      if (dryRun) args.push("--dry-run");
      if (localRegistry) args.push("--provenance=false");
      const run = spawnSync("npm", args, { encoding: "utf8" });
      if (run.status !== 0) {
        failed = true;
        result = `FAILED: ${(run.stderr.split("\n").find((line) => /ERR!/.test(line)) ?? run.stderr.trim().split("\n").pop() ?? "").trim()}`;
      }
    }
    rows.push([manifest.name, manifest.version, kib(statSync(tarball).size), String(files), result]);
  }
} finally {
  if (args.out === undefined) rmSync(outDir, { recursive: true, force: true });
}

const header = ["package", "version", "tarball", "files", dryRun ? `dry run → ${registry}` : `→ ${registry}`];
const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
console.log([line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n"));
if (failed) process.exit(1);
if (!dryRun && !localRegistry) execFileSync("npx", ["changeset", "tag"], { cwd: root, stdio: "inherit" });
