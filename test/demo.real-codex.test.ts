import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the quick-start demo (examples/demo.mjs)", () => {
  it("runs a real codex app-server turn against the mock model: prints the approval and its decision, streams the answer, exits 0", () => {
    const stdout = runExample("demo.mjs");
    expect(stdout).toContain("approval requested: /bin/bash -lc 'ls -1' — List the files in the workspace");
    expect(stdout).toContain("decision: accept");
    expect(stdout).toMatch(/\$ \/bin\/bash -lc 'ls -1'\nREADME\.md\nnotes\.txt\n\(completed, exit 0\)/);
    expect(stdout).toContain("codex: Let me look at the workspace first.");
    expect(stdout).toContain("The workspace holds two files: README.md, a one-line title, and notes.txt");
    expect(stdout).toContain("turn completed; 4 items");
  });
});
