// `turn/steer`: more input for a running turn. Measured on codex 0.169.0: the answer is
// `{ turnId }`; the input becomes a `userMessage` item of the same turn (item/started and
// item/completed) and the model sees it at its next request, after what it was doing (a tool call's
// output); a model request in flight is not cut short. codex refuses with -32600: "no active turn
// to steer" (the turn ended), "expected active turn id `A` but found `B`" (another turn is running),
// "input must not be empty". Loaded with the turn, not on demand: a steer must go out before a
// request called after it (an interrupt).
import { ServerError } from "../errors/errors.js";
import { TurnNotRunningError } from "../errors/turn-errors.js";
import type { SessionHost } from "./session-host.js";

/** codex's refusals that mean "that turn is not the running one". */
const NOT_RUNNING = [/no active turn/i, /expected active turn id/i];

/** Sends `turn/steer`; a refusal because the turn is not running becomes a TurnNotRunningError. */
export async function steerTurn(host: SessionHost, threadId: string, turnId: string, input: readonly unknown[], params: object | undefined): Promise<unknown> {
  try {
    return await host.request("turn/steer", { ...params, threadId, expectedTurnId: turnId, input });
  } catch (error) {
    if (error instanceof ServerError && NOT_RUNNING.some((pattern) => pattern.test(error.rpcMessage))) {
      throw new TurnNotRunningError(threadId, turnId, error.rpcMessage, { cause: error });
    }
    throw error;
  }
}

/** A string is one text input, as `run()` takes it. */
export function userInputOf(input: string | readonly unknown[]): unknown[] {
  return typeof input === "string" ? [{ type: "text", text: input }] : [...input];
}
