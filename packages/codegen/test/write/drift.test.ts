import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { displayPath } from "../../src/util/display-path.js";
import { BUNDLE_FILE } from "../../src/read/schema-bundle.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

const vendored = fileURLToPath(new URL("../../../../schemas/codex/0.169.0", import.meta.url));
const repositoryRoot = fileURLToPath(new URL("../../../..", import.meta.url));

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

describe("generate --check", () => {
  let schemas: string;
  let output: string;
  let args: string[];

  beforeAll(async () => {
    const work = temporaryDirectory("codex-rpc-drift-");
    schemas = join(work, "schemas");
    output = join(work, "generated");
    for (const file of ["manifest.json", `stable/${BUNDLE_FILE}`, `experimental/${BUNDLE_FILE}`]) {
      cpSync(join(vendored, file), join(schemas, file));
    }
    args = ["generate", "--schemas", schemas, "--out", output];
    expect((await run(args)).code).toBe(0);
  });

  it("passes on the committed output, run as the root script runs it", () => {
    // The header names the command with the paths as given, so run it from the repository root.
    const bin = fileURLToPath(new URL("../../bin/codex-rpc-gen.js", import.meta.url));
    const result = spawnSync(process.execPath, [bin, "generate", "--schemas", "schemas/codex/0.169.0", "--out", "packages/protocol/generated", "--check"], {
      cwd: repositoryRoot,
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("22 files in packages/protocol/generated match codex 0.169.0 schemas");
  });

  it.each([
    { spelling: "with ./ prefixes", schemas: "./schemas/codex/0.169.0", out: "./packages/protocol/generated" },
    { spelling: "with trailing slashes", schemas: "schemas/codex/0.169.0/", out: "packages/protocol/generated/" },
    { spelling: "absolute", schemas: join(repositoryRoot, "schemas/codex/0.169.0"), out: join(repositoryRoot, "packages/protocol/generated") },
  ])("passes on the committed output whatever the spelling of the same paths: $spelling", ({ schemas: dir, out }) => {
    const bin = fileURLToPath(new URL("../../bin/codex-rpc-gen.js", import.meta.url));
    const result = spawnSync(process.execPath, [bin, "generate", "--schemas", dir, "--out", out, "--check"], {
      cwd: repositoryRoot,
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("22 files");
  });

  it.each([
    { path: "./schemas/x", display: "schemas/x" },
    { path: "schemas/x/", display: "schemas/x" },
    { path: "schemas//x/../x", display: "schemas/x" },
    { path: "/repo/schemas/x", display: "schemas/x" },
    { path: ".", display: "." },
    { path: "/elsewhere/x", display: "/elsewhere/x" },
    { path: "../x", display: "/x" },
  ])("shows $path as $display in headers (cwd /repo)", ({ path, display }) => {
    expect(displayPath(path, "/repo")).toBe(display);
  });

  it("passes right after generating", async () => {
    const result = await run([...args, "--check"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("22 files");
  });

  it("fails, naming the file, when a generated file is edited", async () => {
    const file = join(output, "stable", "types.d.ts");
    const original = readFileSync(file, "utf8");
    appendFileSync(file, "export type Sneaky = 1;\n");
    try {
      const result = await run([...args, "--check"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/differs\s+stable\/types\.d\.ts/);
    } finally {
      writeFileSync(file, original);
    }
  });

  it("fails when a generated file is deleted or an unexpected one appears", async () => {
    const file = join(output, "experimental", "methods.js");
    const original = readFileSync(file, "utf8");
    rmSync(file);
    writeFileSync(join(output, "stable", "stray.d.ts"), "");
    try {
      const result = await run([...args, "--check"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/missing\s+experimental\/methods\.js/);
      expect(result.stderr).toMatch(/unexpected\s+stable\/stray\.d\.ts/);
    } finally {
      writeFileSync(file, original);
      rmSync(join(output, "stable", "stray.d.ts"));
    }
  });

  it("fails when a vendored schema changes", async () => {
    const file = join(schemas, "stable", BUNDLE_FILE);
    const original = readFileSync(file, "utf8");
    const bundle = JSON.parse(original);
    bundle.definitions.v2.Thread.properties.name.description = "Changed upstream.";
    writeFileSync(file, JSON.stringify(bundle));
    try {
      const result = await run([...args, "--check"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/differs\s+stable\/types\.d\.ts/);
      expect(result.stderr).toContain("stale; run: codex-rpc-gen generate");
    } finally {
      writeFileSync(file, original);
    }
  });

  it("a file where the output folder should be is a typed error, not a raw ENOTDIR", async () => {
    const file = join(temporaryDirectory("codex-rpc-drift-file-"), "not-a-folder");
    writeFileSync(file, "");
    const result = await run(["generate", "--schemas", schemas, "--out", file, "--check"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("OUTPUT_NOT_GENERATED");
    expect(result.stderr).toContain("is a file");
  });
});
