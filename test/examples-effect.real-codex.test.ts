import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the Effect example (examples/effect/turn.mjs)", () => {
  it("runs a real codex app-server turn in Effect style: the approval Effect uses the app's service, the Schema tool runs, the text streams, exit 0", () => {
    const stdout = runExample("effect/turn.mjs");
    expect(stdout).toContain("approval: /bin/bash -lc 'ls -1' → accept");
    expect(stdout).toContain("tool: weather(Paris, 2)");
    expect(stdout).toContain("codex: The workspace holds README.md, and Paris will be sunny for two days.");
    expect(stdout).toMatch(/turn completed; \d+ items/);
  });
});
