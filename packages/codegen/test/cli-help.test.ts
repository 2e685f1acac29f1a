import { describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli.js";

const run = runCli;

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
