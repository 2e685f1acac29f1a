// The errors of turn operations: steering a turn that is not running, a thread busy with another
// turn (a structured output that does not fit its schema: output-validation-error.ts).
import { excerptOf } from "../util/describe-value.js";
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
