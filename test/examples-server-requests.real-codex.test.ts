import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const example = fileURLToPath(new URL("../examples/server-requests.mjs", import.meta.url));

describe("examples/server-requests.mjs", () => {
  it("answers codex's question through userInput and its approval among the offered decisions, and the turn completes", () => {
    const run = spawnSync(process.execPath, [example], { encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      "question: Which size should the file be? (Small / Large)",
      "answer: Large",
      "approval: /bin/bash -lc 'touch answer.txt' (offered: accept, cancel)",
      "codex: Done: answer.txt is written.",
      "turn completed",
      "",
    ]);
  });
});
