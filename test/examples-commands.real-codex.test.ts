import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const example = fileURLToPath(new URL("../examples/commands.mjs", import.meta.url));

describe("the commands example (examples/commands.mjs)", () => {
  it("streams a command's output, feeds cat, terminates sleep, round-trips a file and sees a watch fire, offline; exits 0", () => {
    const run = spawnSync(process.execPath, [example], { encoding: "utf8", timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
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
