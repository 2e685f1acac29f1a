import { describe, expect, it } from "vitest";
import { CodexRpcError, OutputValidationError, ThreadBusyError, TurnNotRunningError } from "@codex-rpc/core";

describe("turn errors", () => {
  it("have stable codes and bounded messages", () => {
    const issues = Array.from({ length: 5 }, (_, i) => ({ message: `bad ${i}`, path: ["items", i] }));
    const output = new OutputValidationError("turn-1", "schema", issues, "does not match the schema");
    expect(output).toBeInstanceOf(CodexRpcError);
    expect(output.message).toBe(
      'turn "turn-1": the structured output does not match the schema: items[0]: bad 0; items[1]: bad 1; items[2]: bad 2 (and 2 more)',
    );
    expect(new ThreadBusyError("th", 2)).toMatchObject({ code: "THREAD_BUSY", message: 'thread "th" has 2 turns running or queued; not starting another' });
    expect(new TurnNotRunningError("th", undefined, "the turn did not start")).toMatchObject({
      code: "TURN_NOT_RUNNING",
      message: 'turn (not started) on thread "th" is not running: the turn did not start',
    });
  });
});
