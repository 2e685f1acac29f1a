// C5 (review 8): a filesystem error while checking earlier output is a CodegenError, not a raw stack.
// fs is mocked (the tests may run as root, whom chmod 000 does not stop).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { CodegenError } from "../../src/util/codegen-error.js";
import { generatedHeader } from "../../src/write/generated-header.js";
import { writeGeneratedFiles } from "../../src/write/write-generated-files.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

const denied = (call: string, path: unknown) => Object.assign(new Error(`EACCES: permission denied, ${call} '${String(path)}'`), { code: "EACCES" });

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  return {
    ...fs,
    openSync: (path: string, ...rest: unknown[]) => {
      if (String(path).endsWith("locked.d.ts")) throw denied("open", path);
      return (fs.openSync as (...args: unknown[]) => number)(path, ...rest);
    },
    readdirSync: (path: string, ...rest: unknown[]) => {
      if (String(path).endsWith("locked-folder")) throw denied("scandir", path);
      return (fs.readdirSync as (...args: unknown[]) => unknown)(path, ...rest);
    },
  };
});

const generated = (body: string) => `${generatedHeader("9.9.9", "stable", "codex-rpc-gen generate --schemas s --out o")}${body}\n`;

function errorOf(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("checking earlier output that cannot be read (C5)", () => {
  it("an unreadable file is OUTPUT_NOT_GENERATED naming it", () => {
    const out = join(temporaryDirectory("codex-rpc-out-"), "generated");
    mkdirSync(out);
    writeFileSync(join(out, "locked.d.ts"), generated("x"));
    const error = errorOf(() => writeGeneratedFiles(out, new Map([["locked.d.ts", generated("y")]])));
    expect(error).toBeInstanceOf(CodegenError);
    expect((error as CodegenError).code).toBe("OUTPUT_NOT_GENERATED");
    expect((error as CodegenError).message).toContain("locked.d.ts");
    expect((error as CodegenError).message).toContain("EACCES");
  });

  it("an unreadable folder is OUTPUT_NOT_GENERATED naming it", () => {
    const out = join(temporaryDirectory("codex-rpc-out-"), "generated");
    mkdirSync(join(out, "locked-folder"), { recursive: true });
    const error = errorOf(() => writeGeneratedFiles(out, new Map([["locked-folder/a.d.ts", generated("y")]])));
    expect(error).toBeInstanceOf(CodegenError);
    expect((error as CodegenError).code).toBe("OUTPUT_NOT_GENERATED");
    expect((error as CodegenError).message).toContain("locked-folder");
  });
});
