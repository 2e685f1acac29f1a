// What every published package must say about itself, checked from the sources (no build needed):
// the repository, homepage and bugs taken from the root package.json (where the repository URL is
// decided; package fields, README links and typedoc.json's source links are checked against it), engines, the Apache-2.0 LICENSE in the tarball, provenance, dependencies as
// ranges with rxjs a peer, no dependency the package never imports, and README links that work on
// npm (absolute links into the repository, to files that exist). Used by tools/lint-packages.mjs
// and test/package-metadata.test.ts.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** Packages whose users bring their own copy: a peer dependency with a range, never a dependency. */
const PEER_ONLY = ["rxjs", "effect"];

/** The repository's web address from the root package.json (`git+https://…/x.git` → `https://…/x`). */
export function repositoryBase(root) {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
}

/** The published (non-private) packages under packages/, by folder name. */
export function publicPackages(root) {
  const dir = join(root, "packages");
  return readdirSync(dir).filter((name) => JSON.parse(readFileSync(join(dir, name, "package.json"), "utf8")).private !== true);
}

/** Every file a package ships from its sources (what its dependencies may be imported from). */
function shippedSources(packageDir, manifest) {
  const files = [];
  const walk = (path) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== "node_modules") walk(join(path, entry));
    } else if (/\.(m?[jt]s|d\.ts)$/.test(path)) files.push(path);
  };
  for (const entry of manifest.files ?? []) walk(join(packageDir, entry));
  walk(join(packageDir, "src"));
  return files;
}

/** The bare specifiers a file imports (static, dynamic, re-exports, `import type`). */
function importedPackages(text) {
  const names = new Set();
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"'./][^"']*)["']/g)) {
    const spec = match[1];
    if (spec.startsWith("node:")) continue;
    names.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
  }
  return names;
}

/** Markdown link targets: inline `[x](target)` and reference definitions `[x]: target`. */
export function markdownLinks(text) {
  const withoutCode = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const links = [];
  for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?[^)]*\)|^\s*\[[^\]]+\]:\s*(\S+)/gm)) links.push(match[1] ?? match[2]);
  return links;
}

const isRange = (spec) => /^(\^|~|>=|\d+\.x$|workspace:([~^]|\d+\.x$))/.test(spec);

/** Problems found, one sentence each; empty when every package is right. */
export function checkPackageMetadata(root) {
  const problems = [];
  const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const base = repositoryBase(root);
  const license = readFileSync(join(root, "LICENSE"), "utf8");
  if (!license.includes("Apache License") || !license.includes("Version 2.0, January 2004")) problems.push("LICENSE: not the Apache-2.0 text");
  const tracked = new Set(execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n"));
  const trackedDirs = new Set(
    [...tracked].flatMap((file) =>
      file
        .split("/")
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
    ),
  );
  const inRepository = (path) => tracked.has(path) || trackedDirs.has(path) || existsSync(join(root, path));

  const checkLinks = (readmePath, { relativeAllowed }) => {
    const from = relative(root, join(readmePath, ".."));
    for (const link of markdownLinks(readFileSync(readmePath, "utf8"))) {
      const where = `${relative(root, readmePath)}: link ${link}`;
      if (/^(#|mailto:)/.test(link)) continue;
      if (/^https?:/.test(link)) {
        if (!link.startsWith(`${base}/`)) continue;
        const path = /^\/(?:blob|tree)\/main\/([^#?]+)/.exec(link.slice(base.length))?.[1];
        if (path !== undefined && !inRepository(decodeURIComponent(path).replace(/\/$/, ""))) problems.push(`${where}: no such file in the repository`);
        continue;
      }
      if (!relativeAllowed) {
        problems.push(`${where}: relative links break on npm; write ${base}/blob/main/…`);
        continue;
      }
      const path = join(from, link.split("#")[0]).replace(/\/$/, "");
      if (path.startsWith("..") || !inRepository(path)) problems.push(`${where}: points outside the repository or at a missing file`);
    }
  };
  checkLinks(join(root, "README.md"), { relativeAllowed: true });

  // The API docs link each declaration to its source in the repository (no git remote needed).
  const typedoc = JSON.parse(readFileSync(join(root, "typedoc.json"), "utf8"));
  const sourceLinks = `${base}/blob/{gitRevision}/{path}#L{line}`;
  if (typedoc.packageOptions?.sourceLinkTemplate !== sourceLinks)
    problems.push(
      `typedoc.json: packageOptions.sourceLinkTemplate is ${JSON.stringify(typedoc.packageOptions?.sourceLinkTemplate)}, want ${JSON.stringify(sourceLinks)}`,
    );
  for (const name of publicPackages(root)) {
    const dir = join(root, "packages", name);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const at = `packages/${name}/package.json`;
    const expect = (field, actual, wanted) => {
      if (JSON.stringify(actual) !== JSON.stringify(wanted)) problems.push(`${at}: ${field} is ${JSON.stringify(actual)}, want ${JSON.stringify(wanted)}`);
    };
    expect("license", manifest.license, "Apache-2.0");
    expect("repository", manifest.repository, { ...rootManifest.repository, directory: `packages/${name}` });
    expect("homepage", manifest.homepage, `${base}/tree/main/packages/${name}#readme`);
    expect("bugs", manifest.bugs, rootManifest.bugs);
    expect("engines", manifest.engines, rootManifest.engines);
    expect("publishConfig", manifest.publishConfig, { access: "public", provenance: true });
    if (manifest.codexVersion !== undefined) {
      // The protocol package's version is codex's: codex 0.M.P is published as M.P.R (.changeset/README.md).
      const [, minor, patch] = manifest.codexVersion.split(".");
      if (!manifest.version.startsWith(`${minor}.${patch}.`))
        problems.push(`${at}: version ${manifest.version} does not name codex ${manifest.codexVersion} (want ${minor}.${patch}.R)`);
    }
    if (!(manifest.files ?? []).includes("LICENSE")) problems.push(`${at}: files does not list LICENSE`);
    // npm leaves a CHANGELOG out unless `files` names it; users read it in the installed package.
    if (!(manifest.files ?? []).includes("CHANGELOG.md")) problems.push(`${at}: files does not list CHANGELOG.md`);
    if (!existsSync(join(dir, "LICENSE")) || readFileSync(join(dir, "LICENSE"), "utf8") !== license)
      problems.push(`packages/${name}/LICENSE: missing or not the root LICENSE (cp LICENSE packages/${name}/)`);

    const dependencies = manifest.dependencies ?? {};
    const peers = manifest.peerDependencies ?? {};
    for (const [dep, spec] of [...Object.entries(dependencies), ...Object.entries(peers)])
      if (!isRange(spec)) problems.push(`${at}: ${dep}@${spec} is an exact pin; a library takes a range (^, ~, workspace:^)`);
    for (const dep of PEER_ONLY)
      if (dep in dependencies) problems.push(`${at}: ${dep} is a dependency; make it a peer dependency (users bring their own copy)`);

    const used = new Set();
    for (const file of shippedSources(dir, manifest)) for (const spec of importedPackages(readFileSync(file, "utf8"))) used.add(spec);
    for (const dep of [...Object.keys(dependencies), ...Object.keys(peers)])
      if (!used.has(dep) && !manifest.peerDependenciesMeta?.[dep]?.optional) problems.push(`${at}: depends on ${dep} but never imports it`);
    for (const dep of PEER_ONLY) if (used.has(dep) && !(dep in peers)) problems.push(`${at}: imports ${dep} without a peer dependency on it`);

    checkLinks(join(dir, "README.md"), { relativeAllowed: false });
  }
  return problems;
}
