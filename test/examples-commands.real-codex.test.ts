import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the commands example (examples/commands.mjs)", () => {
  it("streams a command's output, feeds cat, terminates sleep, round-trips a file and sees a watch fire, offline; exits 0", () => {
    const stdout = runExample("commands.mjs");
    expect(stdout).toBe(
      [
        "[stdout] tick 1",
        "[stdout] tick 2",
        "[stdout] tick 3",
        "[stderr] done",
        "exit code 7",
        'cat said: "hello from stdin\\n"',
        "sleep terminated: exit code 137",
        'read back: "written through fs/writeFile ✓\\n"',
        "workspace holds: notes.txt",
        "watch saw: later.txt",
        "",
      ].join("\n"),
    );
  });
});
