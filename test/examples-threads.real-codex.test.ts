import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the thread operations example (examples/threads.mjs)", () => {
  it("forks, rolls back, compacts, reviews, names, archives and pages through a real codex app-server and the mock model; exits 0", () => {
    const out = runExample("threads.mjs", 90_000);
    expect(out).toContain("> What is the capital of France?\nParis.\n> And of Germany?\nBerlin.\n> And of Italy?\nRome.");
    expect(out).toContain("forked into a new thread (forkedFromId is the original: true)");
    expect(out).toContain("fork: Madrid, on the fork.");
    expect(out).toContain("after rollback(1), turns on the original: 2");
    expect(out).toContain("compaction turn completed: contextCompaction");
    expect(out).toContain(
      "review of current changes completed:\nThe change drops the city's name.\n\nReview comment:\n\n- [P2] Say which city — /workspace/capital.txt:1-1\n  `capital.txt` now says only `capital`; name the city.",
    );
    expect(out).toContain("threads (one per page):\n- Capitals\narchived threads:\n- Capitals (fork)\n");
    expect(out).toContain(
      "turns of the original, oldest first (two per page):\n- completed\n- completed\n- completed\n- interrupted (the reviewer's sub-turn)\n- completed\n",
    );
    expect(out).toContain("its first three items:\n- userMessage\n- agentMessage: Paris.\n- userMessage\n");
  });
});
