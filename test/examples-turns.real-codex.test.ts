import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the turns example (examples/turns.mjs)", () => {
  it("steers a running turn, parses a structured output, prints token usage and queues a second turn, against the real codex and the mock model", () => {
    const stdout = runExample("turns.mjs");
    expect(stdout.split("\n").filter(Boolean)).toEqual([
      "approval requested: /bin/bash -lc 'rm -rf build'",
      'steered turn (the running one): "Actually, do not delete anything; just say so."',
      'user messages in the turn: "Clean up the build output.", "Actually, do not delete anything; just say so."',
      "codex: Understood: I left the build folder alone.",
      "output: Paris, 21 °C",
      // Two responses of 10 + 5 tokens in the first turn, then 1 200 + 12.
      "usage: last response 1200 in (1000 cached), 12 out; thread total 1242",
      "first turn completed: First answer.",
      "second turn started",
      "second turn completed: Second answer.",
    ]);
  });
});
