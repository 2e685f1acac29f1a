import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { codexBinaryIn } from "../../src/read/codex-binary.js";
import { generate } from "../../src/generate.js";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

const repositoryRoot = fileURLToPath(new URL("../../../..", import.meta.url));
const vendored = join(repositoryRoot, "schemas", "codex", "0.169.0");

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

/** Everything after the header's command line, which names the source. */
const body = (text: string) => text.split("\n").slice(2).join("\n");

describe("generate --codex PATH: straight from a binary into a package of its own", () => {
  let binary: string;
  let out: string;
  let args: string[];

  beforeAll(async () => {
    // The workspace's pinned codex, found the way every test finds it.
    binary = pinnedCodexBinary();
    // codexBinaryIn (what `--codex-version` uses after installing) finds the same binary in the
    // node_modules that holds the pinned @openai/codex: its platform package sits beside it in the pnpm store.
    const found = codexBinaryIn(dirname(dirname(realpathSync(join(repositoryRoot, "node_modules", "@openai", "codex")))));
    expect(found && realpathSync(found)).toBe(realpathSync(binary));
    out = join(temporaryDirectory("codex-rpc-package-"), "codex-protocol");
    args = ["generate", "--codex", binary, "--out", out];
    const result = await run(args);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("makes the same modules as the vendored export of that version", () => {
    const fromVendored = generate({ schemasDir: vendored, command: "-" }).files;
    for (const file of ["stable/types.d.ts", "experimental/methods.d.ts", "stable/validators/incoming.js"]) {
      expect(body(readFileSync(join(out, file), "utf8")), file).toBe(body(fromVendored.get(file) ?? ""));
    }
    expect(readFileSync(join(out, "stable", "index.d.ts"), "utf8")).toContain("// Command: codex-rpc-gen generate --codex ");
  });

  it("writes a package.json with an export per entry, and the package loads", async () => {
    const manifest = JSON.parse(readFileSync(join(out, "package.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "codex-app-server-protocol", version: "0.169.0", type: "module" });
    expect(Object.keys(manifest.exports)).toEqual([
      ".",
      "./validators",
      "./validators/incoming",
      "./validators/outgoing",
      "./experimental",
      "./experimental/validators",
      "./experimental/validators/incoming",
      "./experimental/validators/outgoing",
      "./package.json",
    ]);
    const entry = await import(pathToFileURL(join(out, manifest.exports["."].default)).href);
    expect(entry.PROTOCOL_VERSION).toBe("0.169.0");
    const incoming = await import(pathToFileURL(join(out, manifest.exports["./validators/incoming"].default)).href);
    expect(incoming.clientRequestResults["thread/list"]({ data: [], nextCursor: null })).toBe(true);
  });

  it("--check passes against a fresh export of the same binary", async () => {
    expect((await run([...args, "--check"])).code).toBe(0);
  });

  it.each([
    { args: ["generate", "--out", "x"], error: "USAGE: --schemas DIR is required (or --codex PATH, or --codex-version X)" },
    { args: ["generate", "--schemas", "a", "--codex", "b", "--out", "x"], error: "USAGE: give one of --schemas, --codex" },
    { args: ["generate", "--codex-version", "latest", "--out", "x"], error: 'USAGE: --codex-version takes a version such as 0.169.0, not "latest"' },
    {
      args: ["generate", "--codex", "/no/such/codex", "--out", "x"],
      error: "CODEX_EXPORT_FAILED: no codex binary at /no/such/codex: install codex (npm install @openai/codex)",
    },
  ])("refuses $args.1 $args.2 with exit 2", async ({ args: argv, error }) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(error);
  });
});
