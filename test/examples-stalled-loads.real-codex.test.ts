import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the stalled-loads example (examples/stalled-loads.mjs)", () => {
  it("settles calls whose module never loads by their timeout, their signal and the close, against the real codex offline; exits 0", () => {
    const stdout = runExample("stalled-loads.mjs");
    expect(stdout).toBe(
      [
        "fs.readFile: RequestTimeoutError (REQUEST_TIMEOUT) within the timeout: true",
        "exec result: RequestAbortedError (REQUEST_ABORTED), exit: RequestAbortedError (REQUEST_ABORTED)",
        "thread.rollback after close: ConnectionClosedError (CONNECTION_CLOSED)",
        "",
      ].join("\n"),
    );
  });
});
