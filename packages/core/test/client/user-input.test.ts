import { describe, expect, it } from "vitest";
import { noUserInput, userInputAnswers, type CodexClientOptions } from "@codex-rpc/core";
import { serverRequestReply } from "../support/server-request-reply.js";

/** As codex 0.169.0 sends it for a `request_user_input` call (measured). */
const PARAMS = {
  threadId: "t",
  turnId: "u",
  itemId: "call_1",
  isBlocking: true,
  autoResolutionMs: null,
  questions: [
    {
      id: "colour",
      header: "Colour",
      question: "Which colour?",
      isOther: true,
      isSecret: false,
      options: [
        { label: "Red", description: "" },
        { label: "Blue", description: "" },
      ],
    },
    {
      id: "size",
      header: "Size",
      question: "Which size?",
      isOther: false,
      isSecret: false,
      options: [
        { label: "S", description: "" },
        { label: "L", description: "" },
      ],
    },
    { id: "token", header: "Token", question: "Your token?", isOther: false, isSecret: true, options: null },
  ],
};

const answer = (options: CodexClientOptions = {}) => serverRequestReply("item/tool/requestUserInput", PARAMS, options);

describe("user input (scripted server)", () => {
  it("answers no answer without a userInput handler", async () => {
    const { reply, diagnostics } = await answer();
    expect(reply).toEqual({ result: { answers: {} } });
    expect(noUserInput()).toEqual({ answers: {} });
    expect(diagnostics).toEqual([]);
  });

  it("answers with the handler, given the typed questions", async () => {
    const seen: string[] = [];
    const { reply } = await answer({
      userInput: ({ questions }) => {
        seen.push(...questions.map((question) => question.id));
        return userInputAnswers({ colour: "Green (my own)", size: ["L"], token: "s3cret" });
      },
    });
    expect(seen).toEqual(["colour", "size", "token"]);
    expect(reply).toEqual({ result: { answers: { colour: { answers: ["Green (my own)"] }, size: { answers: ["L"] }, token: { answers: ["s3cret"] } } } });
  });

  it("builds answers: a string is one answer, an array several", () => {
    expect(userInputAnswers({ a: "x", b: ["y", "z"], c: [] })).toEqual({ answers: { a: { answers: ["x"] }, b: { answers: ["y", "z"] }, c: { answers: [] } } });
  });

  it.each([
    ["a question that was not asked", userInputAnswers({ shape: "round" }), '"shape" is not the id of a question asked (colour, size, token)'],
    [
      "a label that is no option of an isOther: false question",
      userInputAnswers({ size: "XXL-secret-value" }),
      'question "size" takes only its options\' labels',
    ],
    ["answers that are not strings", { answers: { colour: { answers: [1] } } }, 'the answer to "colour" must be { answers: string[] }'],
    ["no answers object", { colour: "Blue" }, "must return { answers:"],
  ])("refuses %s with -32603 and an INVALID_HANDLER_RESULT diagnostic that holds no answer", async (_name, result, detail) => {
    const { reply, diagnostics } = await answer({ userInput: () => result as never });
    expect(reply).toMatchObject({ error: { code: -32603 } });
    const reported = diagnostics.filter((diagnostic) => diagnostic.kind === "handler-error").map((diagnostic) => diagnostic.message);
    expect(reported).toEqual([expect.stringContaining(detail)]);
    expect(JSON.stringify({ reply, reported })).not.toContain("XXL-secret-value");
  });
});
