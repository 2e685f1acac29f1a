// The published packages' metadata (tools/check-package-metadata.mjs, also run by `lint:packages`):
// checked on every unit run, so a dependency pin, a missing LICENSE or a relative README link
// cannot come back unnoticed.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { checkPackageMetadata, markdownLinks, repositoryBase } from "../tools/check-package-metadata.mjs";

const root = join(import.meta.dirname, "..");
const check = checkPackageMetadata as (root: string) => string[];
const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it("every published package agrees with the root package.json and has what npm users need", () => {
  expect(check(root)).toEqual([]);
});

it("the repository URL is written once, in the root package.json", () => {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  expect(repositoryBase(root)).toBe(manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, ""));
});

it("finds inline and reference links, not code", () => {
  expect(markdownLinks("[a](../x.md) `[b](y.md)`\n[c]: https://e.org\n```\n[d](z)\n```")).toEqual(["../x.md", "https://e.org"]);
});

it("reports an exact pin, rxjs as a dependency, an unused dependency, a missing LICENSE, a relative link and API docs linking elsewhere", () => {
  const copy = mkdtempSync(join(tmpdir(), "codex-rpc-metadata-"));
  copies.push(copy);
  cpSync(root, copy, {
    recursive: true,
    filter: (source) => !/node_modules|\.runtimes|\.turbo|\.build|[/\\]dist$|[/\\]schemas$/.test(source),
  });
  const manifestPath = join(copy, "packages", "stdio", "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  manifest.dependencies.rxjs = "7.8.2";
  manifest.dependencies["left-pad"] = "^1.3.0";
  writeFileSync(manifestPath, JSON.stringify(manifest));
  rmSync(join(copy, "packages", "stdio", "LICENSE"));
  writeFileSync(join(copy, "packages", "stdio", "README.md"), "See [core](../core).\n");
  const typedocPath = join(copy, "typedoc.json");
  const typedoc = JSON.parse(readFileSync(typedocPath, "utf8"));
  typedoc.packageOptions.sourceLinkTemplate = "https://example.org/{path}";
  writeFileSync(typedocPath, JSON.stringify(typedoc));
  const problems = check(copy).join("\n");
  expect(problems).toContain("rxjs@7.8.2 is an exact pin");
  expect(problems).toContain("rxjs is a dependency; make it a peer dependency");
  expect(problems).toContain("depends on left-pad but never imports it");
  expect(problems).toContain("packages/stdio/LICENSE: missing");
  expect(problems).toContain("link ../core: relative links break on npm");
  expect(problems).toContain("typedoc.json: packageOptions.sourceLinkTemplate is");
});
