import type { ToolRequestUserInputResponse } from "@codex-rpc/protocol";
import type { ServerRequestContext } from "../rpc/json-rpc-connection.js";

/** The `userInput` option as the dispatcher keeps it: untyped (the client's options type it by protocol). */
export type UntypedUserInputHandler = (params: unknown, context: ServerRequestContext) => unknown;

/**
 * The answer when nobody is there to ask: no answer to any question. codex 0.169.0 hands it to the
 * model as the tool's output (`{"answers":{}}`) and the turn goes on.
 */
export function noUserInput(): ToolRequestUserInputResponse {
  return { answers: {} };
}

/**
 * The response to `item/tool/requestUserInput` from answers by question id: a string is one
 * answer, an array several. `userInputAnswers({ colour: "Blue" })` is
 * `{ answers: { colour: { answers: ["Blue"] } } }`.
 */
export function userInputAnswers(answers: { readonly [questionId: string]: string | readonly string[] }): ToolRequestUserInputResponse {
  const entries = Object.entries(answers).map(([id, answer]) => [id, { answers: typeof answer === "string" ? [answer] : [...answer] }]);
  return { answers: Object.fromEntries(entries) as ToolRequestUserInputResponse["answers"] };
}
