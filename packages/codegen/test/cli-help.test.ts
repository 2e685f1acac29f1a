import { describe, expect, it } from "vitest";
import { main } from "../src/cli.js";

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

describe("codex-rpc-gen <command> --help", () => {
  it.each([
    { args: ["generate", "--help"], usage: "codex-rpc-gen generate --schemas DIR --out DIR" },
    { args: ["generate", "-h"], usage: "codex-rpc-gen generate --schemas DIR --out DIR" },
    { args: ["generate", "--out", "x", "--help"], usage: "codex-rpc-gen generate --schemas DIR --out DIR" },
    { args: ["diff", "--help"], usage: "codex-rpc-gen diff OLD NEW" },
    { args: ["diff", "-h"], usage: "codex-rpc-gen diff OLD NEW" },
  ])("$args prints that command's usage on stdout and exits 0", async ({ args, usage }) => {
    const result = await run(args);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(usage);
  });
});
