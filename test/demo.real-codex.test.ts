import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const demo = fileURLToPath(new URL("../examples/demo.mjs", import.meta.url));

describe("the quick-start demo (examples/demo.mjs)", () => {
  it("runs a real codex app-server turn against the mock model: prints the approval and its decision, streams the answer, exits 0", () => {
    const run = spawnSync(process.execPath, [demo], { encoding: "utf8", timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("approval requested: /bin/bash -lc 'ls -1' — List the files in the workspace");
    expect(run.stdout).toContain("decision: accept");
    expect(run.stdout).toMatch(/\$ \/bin\/bash -lc 'ls -1'\nREADME\.md\nnotes\.txt\n\(completed, exit 0\)/);
    expect(run.stdout).toContain("codex: Let me look at the workspace first.");
    expect(run.stdout).toContain("The workspace holds two files: README.md, a one-line title, and notes.txt");
    expect(run.stdout).toContain("turn completed; 4 items");
  });
});
