// What a consumer can hand `codex-rpc-gen diff` (review 7, F2): codex's own
// `app-server generate-json-schema --out DIR` folder (no manifest: version unknown), a codex binary,
// `codex@VERSION` from npm, and a folder of generated output (it keeps its version, not its schemas:
// that version's schemas come from npm).
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli.js";
import { BUNDLE_FILE } from "../src/read/schema-bundle.js";
import { displayPath } from "../src/util/display-path.js";
import { notification, ref, writeSchemaFixture } from "./support/schema-fixture.js";
import { temporaryDirectory } from "./support/temporary-directory.js";

const run = runCli;

const before = writeSchemaFixture();
const after = writeSchemaFixture({
  root: { ServerNotification: { oneOf: [notification("thing/removed", ref("ThingRemovedNotification"))] } },
  v2: { ThingRemovedNotification: { type: "object", properties: { id: { type: "string" } }, required: ["id"] }, ThingChangedNotification: undefined },
});

/** What `codex app-server generate-json-schema --out DIR` leaves: the bundle (and per-type files), no manifest. */
function codexExportOf(schemasDir: string): string {
  const dir = join(temporaryDirectory("codex-rpc-export-"), "schemas");
  mkdirSync(dir);
  cpSync(join(schemasDir, "stable", BUNDLE_FILE), join(dir, BUNDLE_FILE));
  writeFileSync(join(dir, "ThingReadParams.json"), "{}");
  return dir;
}

/** A stand-in codex binary: reports `version` and exports the fixture's bundle for either flavor. */
function fakeCodex(schemasDir: string, version: string): string {
  const file = join(temporaryDirectory("codex-rpc-fake-codex-"), "codex");
  const bundle = join(schemasDir, "stable", BUNDLE_FILE);
  writeFileSync(
    file,
    `#!/bin/sh
if [ "$1" = "--version" ]; then echo "codex-cli ${version}"; exit 0; fi
for last; do :; done
mkdir -p "$last" && cp "${bundle}" "$last/${BUNDLE_FILE}"
`,
  );
  chmodSync(file, 0o755);
  return file;
}

/** A project whose .npmrc names a registry nobody listens on (fails at once). */
function unreachableRegistryProject(): string {
  const dir = temporaryDirectory("codex-rpc-npmrc-");
  writeFileSync(join(dir, "package.json"), "{}\n");
  writeFileSync(join(dir, ".npmrc"), "registry=http://127.0.0.1:9/\nfetch-retries=0\n");
  return dir;
}

const bin = fileURLToPath(new URL("../bin/codex-rpc-gen.js", import.meta.url));
const runBin = (args: string[], cwd: string) => spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8" });

describe("codex-rpc-gen diff: what a consumer has", () => {
  it("codex's own generate-json-schema folders: the same diff, the versions unknown", async () => {
    const withManifests = await run(["diff", before, after]);
    const oldExport = codexExportOf(before);
    const newExport = codexExportOf(after);
    const result = await run(["diff", oldExport, newExport]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.out[0]).toBe(`codex ${displayPath(oldExport)} (version unknown) → ${displayPath(newExport)} (version unknown)`);
    expect(result.out.slice(1)).toEqual(withManifests.out.slice(1));
    expect(withManifests.out.slice(1).join("\n")).toContain("+ thing/removed");
  });

  it("a folder with stable/ (and experimental/) exports but no manifest", async () => {
    const dir = temporaryDirectory("codex-rpc-export-");
    cpSync(join(after, "stable"), join(dir, "stable"), { recursive: true });
    const result = await run(["diff", before, dir, "--fail-on", "any"]);
    expect(result.code).toBe(1);
    expect(result.out[0]).toBe(`codex 9.9.9 → ${displayPath(dir)} (version unknown)`);
  });

  it("--flavor experimental against a side without experimental schemas is an error, exit 2, not a silent pass (review 8 D1)", async () => {
    const both = temporaryDirectory("codex-rpc-export-");
    cpSync(join(after, "stable"), join(both, "stable"), { recursive: true });
    cpSync(join(after, "stable"), join(both, "experimental"), { recursive: true });
    const stableOnly = codexExportOf(before);
    for (const [from, to] of [
      [stableOnly, both],
      [both, stableOnly],
    ]) {
      const result = await run(["diff", from as string, to as string, "--flavor", "experimental", "--fail-on", "breaking"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("codex-rpc-gen: SCHEMA_FILE_MISSING: ");
      expect(result.stderr).toContain(`${displayPath(stableOnly)} has no experimental schemas`);
    }
  });

  it("without --flavor, says on stderr which flavor it skipped because a side lacks it (review 8 D1)", async () => {
    const both = temporaryDirectory("codex-rpc-export-");
    cpSync(join(after, "stable"), join(both, "stable"), { recursive: true });
    cpSync(join(after, "stable"), join(both, "experimental"), { recursive: true });
    const result = await run(["diff", codexExportOf(before), both]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("codex-rpc-gen: experimental not compared: ");
  });

  it("a codex binary on either side: its export, and its version", async () => {
    const result = await run(["diff", fakeCodex(before, "9.9.8"), after]);
    // the binary exports both flavors; the vendored fixture has stable only
    expect(result.stderr).toBe(`codex-rpc-gen: experimental not compared: ${displayPath(after)} has no experimental schemas`);
    expect(result.code).toBe(0);
    expect(result.out[0]).toBe("codex 9.9.8 → 9.9.9");
    expect(result.stdout).toContain("+ thing/removed");
  });

  it("codex@VERSION on either side installs that version from npm, with the project's npm configuration", () => {
    const result = runBin(["diff", "codex@0.161.0", before], unreachableRegistryProject());
    expect(result.stderr).toContain("CODEX_EXPORT_FAILED: could not install @openai/codex@0.161.0 (registry http://127.0.0.1:9, ");
    expect(result.status).toBe(2);
  });

  it("a folder of generated output: its version's schemas, from npm", async () => {
    const generated = join(temporaryDirectory("codex-rpc-generated-"), "codex-protocol");
    expect((await run(["generate", "--schemas", before, "--out", generated])).code).toBe(0);
    const result = runBin(["diff", generated, after], unreachableRegistryProject());
    expect(result.stderr).toContain(`${generated} is codex-rpc-gen output for codex 9.9.9`);
    expect(result.stderr).toContain("could not install @openai/codex@9.9.9 (registry http://127.0.0.1:9, ");
    expect(result.status).toBe(2);
  });

  it("a folder holding no schemas: names what diff takes, and no tool the user does not have", async () => {
    const empty = temporaryDirectory("codex-rpc-empty-");
    const result = await run(["diff", empty, after]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`SCHEMA_FILE_MISSING: ${empty} holds no schemas`);
    expect(result.stderr).toContain("codex app-server generate-json-schema --out DIR");
    expect(result.stderr).not.toContain("refresh-schemas");
  });

  it("refuses codex@ with something not a version", async () => {
    const result = await run(["diff", "codex@latest", after]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('USAGE: --codex-version takes a version such as 0.169.0, not "latest"');
  });
});

describe("generate --schemas without a manifest", () => {
  it("names no tool the user does not have", async () => {
    const result = await run(["generate", "--schemas", codexExportOf(before), "--out", join(temporaryDirectory("codex-rpc-out-"), "o")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("SCHEMA_FILE_MISSING: manifest.json is missing");
    expect(result.stderr).not.toContain("refresh-schemas");
  });
});
