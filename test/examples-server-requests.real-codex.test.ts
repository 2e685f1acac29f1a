import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("examples/server-requests.mjs", () => {
  it("answers codex's question through userInput and its approval among the offered decisions, and the turn completes", () => {
    const stdout = runExample("server-requests.mjs");
    expect(stdout.split("\n")).toEqual([
      "question: Which size should the file be? (Small / Large)",
      "answer: Large",
      "approval: /bin/bash -lc 'touch answer.txt' (offered: accept, cancel)",
      "codex: Done: answer.txt is written.",
      "turn completed",
      "",
    ]);
  });
});
