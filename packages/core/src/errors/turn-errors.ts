// The errors of turn operations: steering a turn that is not running, a thread busy with another
// turn, and a structured output that does not fit its schema.
import { excerptOf } from "../util/describe-value.js";
import type { StandardSchemaV1 } from "../util/standard-schema.js";
import { issueLines } from "../util/schema-issues.js";
import { CodexRpcError } from "./errors.js";

/**
 * `turn.steer()` on a turn that is not running: it ended (here or on the server), or the server's
 * active turn is another one. `cause` is the server's refusal when the server said so.
 */
export class TurnNotRunningError extends CodexRpcError {
  override name = "TurnNotRunningError";
  constructor(
    readonly threadId: string,
    readonly turnId: string | undefined,
    /** Why, e.g. "the turn ended" or the server's message. */
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      "TURN_NOT_RUNNING",
      `turn ${turnId === undefined ? "(not started)" : excerptOf(turnId)} on thread ${excerptOf(threadId)} is not running: ${detail}`,
      options,
    );
  }
}

/** `thread.run(…, { whenBusy: "fail" })` while a turn this client started on the thread is running or queued. */
export class ThreadBusyError extends CodexRpcError {
  override name = "ThreadBusyError";
  constructor(
    readonly threadId: string,
    /** How many turns of this client were running or queued on the thread. */
    readonly pendingTurns: number,
  ) {
    super("THREAD_BUSY", `thread ${excerptOf(threadId)} has ${pendingTurns} turn${pendingTurns === 1 ? "" : "s"} running or queued; not starting another`);
  }
}

/**
 * The structured output of a turn with an `outputSchema` could not be had: the turn did not
 * complete with a final message (`reason: "no-output"`), the message is not JSON (`"invalid-json"`)
 * or it does not satisfy the schema (`"schema"`, with the schema library's `issues`). The text
 * itself is in the completed turn's `finalText`, not here.
 */
export class OutputValidationError extends CodexRpcError {
  override name = "OutputValidationError";
  constructor(
    readonly turnId: string,
    readonly reason: "no-output" | "invalid-json" | "schema",
    readonly issues: readonly StandardSchemaV1.Issue[],
    detail: string,
  ) {
    super("OUTPUT_INVALID", `turn ${excerptOf(turnId)}: the structured output ${detail}${describeIssues(issues)}`);
  }
}

function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  if (issues.length === 0) return "";
  const shown = issueLines(issues, 3);
  const rest = issues.length > 3 ? ` (${shown.pop()})` : "";
  return `: ${shown.join("; ")}${rest}`;
}
