import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeGeneratedFiles } from "../../src/write/write-generated-files.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

describe("writing output", () => {
  it("leaves the previous output whole when writing fails part-way", () => {
    const parent = temporaryDirectory("codex-rpc-out-");
    const out = join(parent, "generated");
    writeGeneratedFiles(out, new Map([["a.d.ts", "first\n"]]));
    // "b" as a file and as a folder cannot both be written: the second write fails.
    const clash = new Map([
      ["a.d.ts", "second\n"],
      ["b", "a file\n"],
      ["b/c.d.ts", "inside a file?\n"],
    ]);
    expect(() => writeGeneratedFiles(out, clash)).toThrow();
    expect(readFileSync(join(out, "a.d.ts"), "utf8")).toBe("first\n");
    expect(readdirSync(parent)).toEqual(["generated"]);
  });

  it("replaces the output exactly: files no longer generated disappear", () => {
    const parent = temporaryDirectory("codex-rpc-out-");
    const out = join(parent, "generated");
    writeGeneratedFiles(
      out,
      new Map([
        ["old.d.ts", "old\n"],
        ["kept.d.ts", "v1\n"],
      ]),
    );
    writeGeneratedFiles(out, new Map([["kept.d.ts", "v2\n"]]));
    expect(existsSync(join(out, "old.d.ts"))).toBe(false);
    expect(readFileSync(join(out, "kept.d.ts"), "utf8")).toBe("v2\n");
  });
});
