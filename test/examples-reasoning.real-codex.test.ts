import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the reasoning example (examples/reasoning.mjs)", () => {
  it("streams a reasoning summary, counts the reasoning deltas and prints the completed reasoning item, against the real codex and the mock model", () => {
    const stdout = runExample("reasoning.mjs");
    expect(stdout.split("\n").filter(Boolean)).toEqual([
      "thinking: **Weighing the options**",
      "thinking: A Map keeps lookups constant-time.",
      // 4 chunks of the text, 4 of each of the 2 summary parts.
      "item/reasoning/textDelta: 4",
      "item/reasoning/summaryPartAdded: 2",
      "item/reasoning/summaryTextDelta: 8",
      "reasoning text: The cache is read on every request, so the lookup cost matters more than memory.",
      "summary 0: **Weighing the options**",
      "summary 1: A Map keeps lookups constant-time.",
      "codex: Use a Map: lookups stay O(1) as the cache grows.",
    ]);
  });
});
