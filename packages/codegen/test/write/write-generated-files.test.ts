import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { CodegenError } from "../../src/util/codegen-error.js";
import { generatedHeader } from "../../src/write/generated-header.js";
import { packageManifest } from "../../src/write/package-manifest.js";
import { writeGeneratedFiles } from "../../src/write/write-generated-files.js";
import { writeSchemaFixture } from "../support/schema-fixture.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

/** A file as generate writes it: the header, then the body. */
const generated = (body: string) => `${generatedHeader("9.9.9", "stable", "codex-rpc-gen generate --schemas s --out o")}${body}\n`;

/** The CodegenError `act` throws (fails the test when it throws anything else, or nothing). */
function codegenErrorOf(act: () => unknown): CodegenError {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(CodegenError);
    return error as CodegenError;
  }
  throw new Error("expected a CodegenError, nothing was thrown");
}

/** A folder of the user's: a note and some code of their own. */
function userFolder(): { parent: string; out: string } {
  const parent = temporaryDirectory("codex-rpc-out-");
  const out = join(parent, "mydir");
  mkdirSync(join(out, "sub"), { recursive: true });
  writeFileSync(join(out, "notes.txt"), "precious\n");
  writeFileSync(join(out, "sub", "code.ts"), "export {}\n");
  return { parent, out };
}

function expectUserFolderWhole(parent: string, out: string): void {
  expect(readFileSync(join(out, "notes.txt"), "utf8")).toBe("precious\n");
  expect(readFileSync(join(out, "sub", "code.ts"), "utf8")).toBe("export {}\n");
  expect(readdirSync(parent)).toEqual(["mydir"]); // no staging directory left behind
}

describe("writing output", () => {
  it("leaves the previous output whole when writing fails part-way, as a CodegenError, and no staging folder", () => {
    const parent = temporaryDirectory("codex-rpc-out-");
    const out = join(parent, "generated");
    writeGeneratedFiles(out, new Map([["a.d.ts", generated("first")]]));
    // "b" as a file and as a folder cannot both be written: the second write fails.
    const clash = new Map([
      ["a.d.ts", generated("second")],
      ["b", generated("a file")],
      ["b/c.d.ts", generated("inside a file?")],
    ]);
    const error = codegenErrorOf(() => writeGeneratedFiles(out, clash));
    expect(error.code).toBe("WRITE_FAILED");
    expect(error.message).toContain(out);
    expect(readFileSync(join(out, "a.d.ts"), "utf8")).toBe(generated("first"));
    expect(readdirSync(parent)).toEqual(["generated"]);
  });

  it("replaces earlier output of the same paths; a file it no longer writes is refused (remove it), never deleted", () => {
    const parent = temporaryDirectory("codex-rpc-out-");
    const out = join(parent, "generated");
    const output = (version: string) =>
      new Map([
        ["old.d.ts", generated(`old ${version}`)],
        ["kept.d.ts", generated(version)],
        ["package.json", packageManifest("p", "9.9.9", ["stable"], "codex-rpc-gen generate --codex c --out o")],
      ]);
    writeGeneratedFiles(out, output("v1"));
    const error = codegenErrorOf(() => writeGeneratedFiles(out, new Map([["kept.d.ts", generated("v2")]])));
    expect(error.code).toBe("OUTPUT_NOT_GENERATED");
    expect(error.message).toContain("old.d.ts");
    expect(error.message).toContain("package.json");
    expect(existsSync(join(out, "old.d.ts"))).toBe(true);
    expect(readFileSync(join(out, "kept.d.ts"), "utf8")).toBe(generated("v1"));
    writeGeneratedFiles(out, output("v2"));
    expect(readFileSync(join(out, "kept.d.ts"), "utf8")).toBe(generated("v2"));
    expect(readdirSync(parent)).toEqual(["generated"]);
  });

  it("writes into an existing empty folder", () => {
    const out = temporaryDirectory("codex-rpc-out-");
    writeGeneratedFiles(out, new Map([["a.d.ts", generated("a")]]));
    expect(readdirSync(out)).toEqual(["a.d.ts"]);
  });

  it("refuses a folder holding files it did not generate, naming them, and touches nothing", () => {
    const { parent, out } = userFolder();
    writeFileSync(join(out, "types.d.ts"), generated("earlier output beside the user's files"));
    const error = codegenErrorOf(() => writeGeneratedFiles(out, new Map([["a.d.ts", generated("a")]])));
    expect(error.code).toBe("OUTPUT_NOT_GENERATED");
    expect(error.message).toContain(out);
    expect(error.message).toContain("notes.txt");
    expect(error.message).toContain("sub/code.ts");
    expect(error.message).toContain("choose an empty or new directory");
    expectUserFolderWhole(parent, out);
  });

  it("refuses a file where the output folder should be", () => {
    const parent = temporaryDirectory("codex-rpc-out-");
    const out = join(parent, "generated");
    writeFileSync(out, "mine\n");
    expect(codegenErrorOf(() => writeGeneratedFiles(out, new Map([["a.d.ts", generated("a")]]))).code).toBe("OUTPUT_NOT_GENERATED");
    expect(readFileSync(out, "utf8")).toBe("mine\n");
    expect(readdirSync(parent)).toEqual(["generated"]);
  });

  it("refuses the current directory and every parent of it, even when empty of anything but output", () => {
    const parent = temporaryDirectory("codex-rpc-out-");
    const out = join(parent, "generated");
    writeGeneratedFiles(out, new Map([["a.d.ts", generated("a")]]));
    for (const cwd of [out, join(out, "deeper", "still")]) {
      const error = codegenErrorOf(() => writeGeneratedFiles(out, new Map([["b.d.ts", generated("b")]]), { cwd }));
      expect(error.code).toBe("OUTPUT_HOLDS_CWD");
      expect(error.message).toContain(out);
    }
    expect(readdirSync(out)).toEqual(["a.d.ts"]);
    expect(readdirSync(parent)).toEqual(["generated"]);
  });
});

describe("the output folder (review 8)", () => {
  it("C1: a new output folder has the umask's mode, not mkdtemp's 0700", () => {
    const out = join(temporaryDirectory("codex-rpc-out-"), "generated");
    writeGeneratedFiles(out, new Map([["a.d.ts", generated("a")]]));
    expect(statSync(out).mode & 0o777).toBe(0o777 & ~process.umask());
  });

  it("C1: replacing output keeps the previous output folder's mode", () => {
    const parent = temporaryDirectory("codex-rpc-out-");
    const out = join(parent, "generated");
    mkdirSync(out, { mode: 0o750 });
    writeGeneratedFiles(out, new Map([["a.d.ts", generated("a")]]));
    expect(statSync(out).mode & 0o777).toBe(0o750);
  });

  it("C2: refuses an --out that is a symlink (OUTPUT_IS_LINK), leaving the link and its target as they were", () => {
    const parent = temporaryDirectory("codex-rpc-out-");
    const real = join(parent, "real");
    mkdirSync(real);
    writeGeneratedFiles(real, new Map([["a.d.ts", generated("a")]]));
    const link = join(parent, "link");
    symlinkSync(real, link);
    const error = codegenErrorOf(() => writeGeneratedFiles(link, new Map([["b.d.ts", generated("b")]])));
    expect(error.code).toBe("OUTPUT_IS_LINK");
    expect(error.message).toContain(real);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readdirSync(real)).toEqual(["a.d.ts"]);
    expect(readdirSync(parent).sort()).toEqual(["link", "real"]);
  });

  it("C3: refuses a file of the user's that starts with the generated header but is not a path generate writes", () => {
    const parent = temporaryDirectory("codex-rpc-out-");
    const out = join(parent, "generated");
    writeGeneratedFiles(out, new Map([["stable/index.d.ts", generated("a")]]));
    writeFileSync(join(out, "stable", "my-extras.ts"), generated("export const mine = 1;"));
    const error = codegenErrorOf(() => writeGeneratedFiles(out, new Map([["stable/index.d.ts", generated("b")]])));
    expect(error.code).toBe("OUTPUT_NOT_GENERATED");
    expect(error.message).toContain("stable/my-extras.ts");
    expect(error.message).toContain("remove");
    expect(readFileSync(join(out, "stable", "my-extras.ts"), "utf8")).toBe(generated("export const mine = 1;"));
    expect(readdirSync(parent)).toEqual(["generated"]);
  });

  it("C4: refuses an empty folder of the user's inside earlier output, and keeps it", () => {
    const parent = temporaryDirectory("codex-rpc-out-");
    const out = join(parent, "generated");
    writeGeneratedFiles(out, new Map([["stable/index.d.ts", generated("a")]]));
    mkdirSync(join(out, "notes-for-later"));
    mkdirSync(join(out, "stable", "deeper"));
    const error = codegenErrorOf(() => writeGeneratedFiles(out, new Map([["stable/index.d.ts", generated("b")]])));
    expect(error.code).toBe("OUTPUT_NOT_GENERATED");
    expect(error.message).toContain("notes-for-later/");
    expect(error.message).toContain("stable/deeper/");
    expect(existsSync(join(out, "notes-for-later"))).toBe(true);
    expect(readdirSync(parent)).toEqual(["generated"]);
  });
});

describe("generate --out into a folder of the user's", () => {
  it("exits 2 with OUTPUT_NOT_GENERATED and deletes nothing", async () => {
    const { parent, out } = userFolder();
    const err: string[] = [];
    const code = await main(["generate", "--schemas", writeSchemaFixture(), "--out", out], { out: () => {}, err: (line) => err.push(line) });
    expect(code).toBe(2);
    expect(err.join("\n")).toContain(`codex-rpc-gen: OUTPUT_NOT_GENERATED: ${out}`);
    expectUserFolderWhole(parent, out);
  });

  it("--out=~/gen (no shell expanded the ~): warns, and reports the folder it really wrote (review 8 G1)", () => {
    const cwd = temporaryDirectory("codex-rpc-cwd-");
    const bin = fileURLToPath(new URL("../../bin/codex-rpc-gen.js", import.meta.url));
    const result = spawnSync(process.execPath, [bin, "generate", "--schemas", writeSchemaFixture(), "--out=~/gen"], { cwd, encoding: "utf8" });
    expect(result.status).toBe(0);
    const written = join(realpathSync(cwd), "~", "gen");
    expect(existsSync(written)).toBe(true);
    expect(result.stderr).toContain(`codex-rpc-gen: warning: --out ~/gen starts with ~, which no shell expanded: writing to ${written}`);
    expect(result.stdout).toContain(`to ${written} for codex`);
  });

  it("--out . exits 2 with OUTPUT_HOLDS_CWD, no stack, and leaves the folder as it was", () => {
    const cwd = temporaryDirectory("codex-rpc-cwd-");
    writeFileSync(join(cwd, "notes.txt"), "precious\n");
    const bin = fileURLToPath(new URL("../../bin/codex-rpc-gen.js", import.meta.url));
    const result = spawnSync(process.execPath, [bin, "generate", "--schemas", writeSchemaFixture(), "--out", "."], { cwd, encoding: "utf8" });
    expect(result.stderr).toContain("codex-rpc-gen: OUTPUT_HOLDS_CWD: ");
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.status).toBe(2);
    expect(readdirSync(cwd)).toEqual(["notes.txt"]);
  });
});

describe("a read-only output folder (review 9 G-RO)", () => {
  it("C6: an --out of mode 555 is replaced on every run (exit 0), the new one read-only too, no -previous left", () => {
    // Root may remove anything: run as nobody then, as an ordinary user would, in a folder of /tmp
    // (the test run's own temp directory is 0700).
    const asRoot = process.getuid?.() === 0;
    const root = asRoot ? mkdtempSync("/tmp/codegen-readonly-out-") : temporaryDirectory("codex-rpc-out-");
    try {
      const schemas = join(root, "schemas");
      cpSync(writeSchemaFixture(), schemas, { recursive: true });
      const parent = join(root, "parent");
      mkdirSync(parent);
      if (asRoot) spawnSync("chmod", ["-R", "a+rwX", root]);
      const out = join(parent, "out");
      const gen = () => {
        const args = [fileURLToPath(new URL("../../bin/codex-rpc-gen.js", import.meta.url)), "generate", "--schemas", schemas, "--out", out];
        return asRoot
          ? spawnSync("runuser", ["-u", "nobody", "--", process.execPath, ...args], { encoding: "utf8" })
          : spawnSync(process.execPath, args, { encoding: "utf8" });
      };
      const first = gen();
      expect(first.stderr).toBe("");
      expect(first.status).toBe(0);
      chmodSync(out, 0o555);
      for (let run = 0; run < 2; run++) {
        const result = gen();
        expect(result.stderr).toBe("");
        expect(result.status).toBe(0);
        expect(readdirSync(parent)).toEqual(["out"]);
        expect(statSync(out).mode & 0o777).toBe(0o555);
      }
    } finally {
      spawnSync("chmod", ["-R", "u+w", root]);
      rmSync(root, { recursive: true, force: true });
    }
  });
});
