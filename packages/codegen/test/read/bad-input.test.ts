import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { generatedHeader } from "../../src/write/generated-header.js";
import { writeSchemaFixture } from "../support/schema-fixture.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

/** A file of the previous generation (its header makes it one). */
const PREVIOUS = `${generatedHeader("9.9.9", "stable", "codex-rpc-gen generate --schemas s --out generated")}// the previous generation\n`;

/** Runs the CLI into an output directory that already holds a previous generation. */
async function runInto(schemasDir: string) {
  const parent = temporaryDirectory("codex-rpc-out-");
  const out = join(parent, "generated");
  mkdirSync(out);
  writeFileSync(join(out, "previous.d.ts"), PREVIOUS);
  const err: string[] = [];
  const code = await main(["generate", "--schemas", schemasDir, "--out", out], { out: () => {}, err: (line) => err.push(line) });
  return { code, stderr: err.join("\n"), out, parent };
}

function expectUntouched(out: string, parent: string): void {
  expect(readdirSync(out)).toEqual(["previous.d.ts"]);
  expect(readFileSync(join(out, "previous.d.ts"), "utf8")).toBe(PREVIOUS);
  expect(readdirSync(parent)).toEqual(["generated"]); // no staging directory left behind
}

describe("bad input: a clear error naming the file and JSON pointer, exit 2, output untouched", () => {
  it("a missing schema directory", async () => {
    const missing = join(tmpdir(), "codex-rpc-no-such-schemas");
    const run = await runInto(missing);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`SCHEMA_DIR_MISSING: schema directory not found: ${missing}`);
    expectUntouched(run.out, run.parent);
  });

  it("invalid JSON", async () => {
    const dir = writeSchemaFixture({ rawBundle: '{\n  "definitions": {\n    "Broken": { "type": "string", }\n  }\n}\n' });
    const run = await runInto(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("INVALID_JSON: invalid JSON at line 3");
    expect(run.stderr).toContain(join(dir, "stable", "codex_app_server_protocol.schemas.json"));
    expectUntouched(run.out, run.parent);
  });

  it("a $ref to nowhere", async () => {
    const dir = writeSchemaFixture({
      v2: { Thing: { type: "object", properties: { owner: { $ref: "#/definitions/v2/Nobody" } } } },
    });
    const run = await runInto(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('UNRESOLVED_REF: $ref "#/definitions/v2/Nobody" points to no definition');
    expect(run.stderr).toContain("at #/definitions/v2/Thing/properties/owner/$ref");
    expectUntouched(run.out, run.parent);
  });

  it("a union the emitter does not understand", async () => {
    const dir = writeSchemaFixture({ v2: { Thing: { oneOf: [{ type: "string" }, { not: { type: "null" } }] } } });
    const run = await runInto(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('UNSUPPORTED_SCHEMA: the emitter does not understand the keyword "not"');
    expect(run.stderr).toContain("at #/definitions/v2/Thing/oneOf/1/not");
    expectUntouched(run.out, run.parent);
  });

  it("an empty union", async () => {
    const dir = writeSchemaFixture({ v2: { Thing: { anyOf: [] } } });
    const run = await runInto(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("UNSUPPORTED_SCHEMA: anyOf must be a non-empty array of schemas");
    expect(run.stderr).toContain("at #/definitions/v2/Thing/anyOf");
  });

  it("a missing manifest, and bad usage", async () => {
    const dir = temporaryDirectory("codex-rpc-empty-");
    const run = await runInto(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("SCHEMA_FILE_MISSING: manifest.json is missing");
    const err: string[] = [];
    expect(await main(["generate", "--schemas", dir], { out: () => {}, err: (l) => err.push(l) })).toBe(2);
    expect(err.join("\n")).toContain("USAGE: --out DIR is required");
  });
});
