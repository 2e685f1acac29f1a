import type { ToolRequestUserInputResponse } from "@codex-rpc/protocol";
import { InvalidHandlerResultError } from "../errors/errors.js";
import type { ServerRequestContext } from "../rpc/json-rpc-connection.js";
import { isRecord } from "../util/is-record.js";
import { noUserInput, type UntypedUserInputHandler } from "./user-input.js";

// User input answered by the `userInput` option, its answer checked: loaded on demand (import())
// with the client's other default answers.

const METHOD = "item/tool/requestUserInput";

/** Answers `item/tool/requestUserInput`: the handler's answer, checked against the questions; without one, no answer. */
export async function answerUserInput(
  handler: UntypedUserInputHandler | undefined,
  params: unknown,
  context: ServerRequestContext,
): Promise<ToolRequestUserInputResponse> {
  if (!handler) return noUserInput();
  const answer = await handler(params, context);
  checkUserInputAnswer(params, answer);
  return answer;
}

/**
 * Throws InvalidHandlerResultError unless `answer` is `{ answers: { <question id>: { answers:
 * string[] } } }` for questions that were asked, and a question that offers options without
 * "other" (`isOther: false`) is answered with option labels only. Messages name question ids,
 * never the answers (a question may be secret).
 */
export function checkUserInputAnswer(params: unknown, answer: unknown): asserts answer is ToolRequestUserInputResponse {
  const fail = (detail: string): never => {
    throw new InvalidHandlerResultError(METHOD, detail);
  };
  const answers = isRecord(answer) ? answer.answers : undefined;
  if (!isRecord(answers)) return fail("the user-input handler must return { answers: { <question id>: { answers: string[] } } }");
  const questions = new Map(questionsOf(params).map((question) => [question.id, question]));
  for (const [id, entry] of Object.entries(answers)) {
    const question = questions.get(id);
    if (!question) return fail(`"${id.slice(0, 50)}" is not the id of a question asked (${[...questions.keys()].join(", ") || "none"})`);
    const given = isRecord(entry) ? entry.answers : undefined;
    if (!Array.isArray(given) || !given.every((value) => typeof value === "string")) return fail(`the answer to "${id}" must be { answers: string[] }`);
    const labels = Array.isArray(question.options) ? question.options.map((option: unknown) => (isRecord(option) ? option.label : undefined)) : [];
    if (question.isOther === false && labels.length > 0 && !given.every((value) => labels.includes(value))) {
      fail(`question "${id}" takes only its options' labels (isOther is false)`);
    }
  }
}

function questionsOf(params: unknown): Record<string, unknown>[] {
  const questions = isRecord(params) ? params.questions : undefined;
  return Array.isArray(questions)
    ? questions.filter((question): question is Record<string, unknown> => isRecord(question) && typeof question.id === "string")
    : [];
}
