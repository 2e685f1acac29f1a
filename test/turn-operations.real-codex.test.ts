// Operations on a running or completed turn, against the real codex app-server and the mock model:
// steering (turn/steer), structured output (outputSchema) with a typed result, token usage on the
// completed turn, and turns on one thread queued instead of racing.
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { RequestAbortedError, ThreadBusyError, TurnNotRunningError, type StandardJSONSchemaV1, type StandardSchemaV1 } from "@codex-rpc/core";
import type { ThreadTokenUsage } from "@codex-rpc/protocol";
import { reply, type ScriptedReply } from "@codex-rpc/testing";
import { OfflineCodex } from "./support/offline-codex.js";

let codex: OfflineCodex | undefined;
afterEach(async () => {
  await codex?.dispose();
  codex = undefined;
});

/**
 * codex with a turn that stays running until `release()`: the model asks to run a command that
 * needs approval, and the approval waits for the test (then declines it).
 */
async function startWithGate(script: readonly ScriptedReply[]) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const asked: string[] = [];
  codex = await OfflineCodex.start({
    script,
    client: {
      approvals: async (request) => {
        asked.push(request.kind);
        await gate;
        return "decline" as const;
      },
    },
  });
  const thread = await codex.startThread({ approvalPolicy: "untrusted" });
  return { codex, thread, release, asked };
}

const gatedCommand = () => reply.execCommand({ cmd: "echo gated", sandbox_permissions: "require_escalated", justification: "hold the turn" });

interface Forecast {
  readonly city: string;
  readonly celsius: number;
}
const FORECAST_JSON_SCHEMA = {
  type: "object",
  properties: { city: { type: "string" }, celsius: { type: "number" } },
  required: ["city", "celsius"],
  additionalProperties: false,
};
/** A Standard Schema written by hand (what zod ≥ 4.2 objects look like to the client, JSON Schema converter included). */
const Forecast: StandardSchemaV1<unknown, Forecast> & StandardJSONSchemaV1<unknown, Forecast> = {
  "~standard": {
    version: 1,
    vendor: "handwritten",
    validate: (value) => {
      const record = value as Partial<Forecast> | null;
      return typeof record?.city === "string" && typeof record.celsius === "number"
        ? { value: { city: record.city, celsius: record.celsius } }
        : { issues: [{ message: "expected { city: string, celsius: number }" }] };
    },
    jsonSchema: { input: () => FORECAST_JSON_SCHEMA, output: () => FORECAST_JSON_SCHEMA },
  },
};

describe("turn.steer against the real codex app-server", () => {
  it("adds input to the running turn: a userMessage item of the same turn, and the model's next request ends with it", async () => {
    const { codex, thread, release, asked } = await startWithGate([gatedCommand(), reply.text("Done, and bye!", { chunks: 2 })]);
    const turn = thread.run("Run the command");
    const turnId = await turn.started;
    await codex.provider.waitForRequests(1);
    await expect.poll(() => asked).toEqual(["commandExecution"]);

    // What codex 0.169.0 answers: `{ turnId }`.
    await expect(turn.steer("Also say bye")).resolves.toEqual({ turnId });
    release();
    const done = await turn.completed;

    expect(done).toMatchObject({ status: "completed", finalText: "Done, and bye!" });
    const userMessages = done.items.flatMap((item) =>
      item.type === "userMessage" ? [item.content.map((part) => (part.type === "text" ? part.text : "")).join("")] : [],
    );
    expect(userMessages).toEqual(["Run the command", "Also say bye"]);
    expect(done.items.map((item) => item.type)).toEqual(["userMessage", "commandExecution", "userMessage", "agentMessage"]);
    // The model saw the command's (declined) output, then the steered input, in one request.
    const second = codex.provider.requests[1];
    expect(second?.lastUserText()).toBe("Also say bye");
    const tail = second?.input.slice(-2).map((item) => item.type);
    expect(tail).toEqual(["function_call_output", "message"]);
    expect(codex.provider.requests).toHaveLength(2);

    // Once the turn ended, steering it is a TurnNotRunningError.
    await expect(turn.steer("too late")).rejects.toBeInstanceOf(TurnNotRunningError);
  });

  it("codex refuses turn/steer naming a turn that is not the active one, or when none is (-32600): the refusals TurnNotRunningError stands for", async () => {
    const { codex, thread, release } = await startWithGate([gatedCommand(), reply.text("first"), reply.text("second")]);
    const first = thread.run("first");
    await codex.provider.waitForRequests(1);
    release();
    await first.completed;
    // A raw turn/start (not through the queue), then a steer naming the ended turn's id.
    const second = thread.run("second");
    await second.started;
    const error = await codex.client
      .request("turn/steer", { threadId: thread.id, expectedTurnId: await first.started, input: [{ type: "text", text: "x", text_elements: [] }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SERVER_ERROR", rpcCode: -32600 });
    expect((error as { rpcMessage: string }).rpcMessage).toMatch(/^expected active turn id `[^`]+` but found `[^`]+`$/);
    await second.completed;
    const afterEnd = await codex.client
      .request("turn/steer", { threadId: thread.id, expectedTurnId: await second.started, input: [{ type: "text", text: "x", text_elements: [] }] })
      .catch((e: unknown) => e);
    expect(afterEnd).toMatchObject({ rpcMessage: "no active turn to steer" });
  });
});

describe("structured output against the real codex app-server", () => {
  it("sends the schema to the model as a strict json_schema format and parses the answer into a typed output", async () => {
    codex = await OfflineCodex.start({
      script: [reply.text('{"city":"Paris","celsius":21}', { chunks: 3 }), reply.text("not json"), reply.text("free text")],
    });
    const thread = await codex.startThread();
    const turn = thread.run("Forecast for Paris?", { outputSchema: Forecast });
    const done = await turn.completed;
    expectTypeOf(done.output).toEqualTypeOf<Forecast | undefined>();
    expect(done.output).toEqual({ city: "Paris", celsius: 21 });
    expect((await turn.output).celsius).toBe(21);
    // What codex 0.169.0 sends the model for turn/start's outputSchema.
    /** The `text` field of the model request `index` (where the Responses API takes the output format). */
    const textField = (index: number) => (codex?.provider.requests[index]?.body as { text?: { format?: unknown } } | undefined)?.text;
    expect(textField(0)).toEqual({
      format: { type: "json_schema", strict: true, name: "codex_output_schema", schema: FORECAST_JSON_SCHEMA },
    });

    // An answer that is not JSON is an OutputValidationError; the turn still completed.
    const next = await thread.run("Again", { outputSchema: Forecast }).completed;
    expect(next).toMatchObject({ status: "completed", output: undefined, outputError: { code: "OUTPUT_INVALID", reason: "invalid-json" } });
    // The schema holds for its turn only: the next turn's request has no format.
    const free = await thread.run("Say anything").completed;
    expect(free).toMatchObject({ finalText: "free text", output: undefined, outputError: undefined });
    expect(textField(2)?.format).toBeUndefined();
  });
});

describe("token usage against the real codex app-server", () => {
  it("puts the turn's last thread/tokenUsage/updated on the completed turn: last = the last response, total = the thread's running total", async () => {
    const usage = { inputTokens: 100, outputTokens: 7, cachedInputTokens: 20, reasoningOutputTokens: 3 };
    codex = await OfflineCodex.start({ script: [reply.text("one", { usage }), reply.text("two", { usage })] });
    const thread = await codex.startThread();
    const first = await thread.run("1").completed;
    expectTypeOf(first.usage).toEqualTypeOf<ThreadTokenUsage | null>();
    const last = { inputTokens: 100, cachedInputTokens: 20, cacheWriteInputTokens: 0, outputTokens: 7, reasoningOutputTokens: 3, totalTokens: 107 };
    expect(first.usage).toEqual({ last, total: last, modelContextWindow: expect.any(Number) });
    const second = await thread.run("2").completed;
    expect(second.usage?.last).toEqual(last);
    expect(second.usage?.total).toMatchObject({ inputTokens: 200, outputTokens: 14, totalTokens: 214 });
  });
});

describe("turns on one thread against the real codex app-server", () => {
  it("codex folds a turn/start sent while a turn runs into that turn (why the client queues)", async () => {
    const { codex, thread, release } = await startWithGate([gatedCommand(), reply.text("one answer")]);
    const running = thread.run("first prompt");
    const runningId = await running.started;
    await codex.provider.waitForRequests(1);
    const raw = await codex.client.request("turn/start", { threadId: thread.id, input: [{ type: "text", text: "second prompt", text_elements: [] }] });
    expect(raw.turn.id).toBe(runningId);
    release();
    const done = await running.completed;
    expect(done.items.filter((item) => item.type === "userMessage")).toHaveLength(2);
  });

  it("queues a second run() until the first turn completed: two turns, each with its own answer", async () => {
    const { codex, thread, release } = await startWithGate([gatedCommand(), reply.text("first answer"), reply.text("second answer")]);
    const first = thread.run("first prompt");
    const second = thread.run("second prompt");
    const order: string[] = [];
    void first.completed.then(() => order.push("first completed"));
    void second.started.then(() => order.push("second started"));
    await codex.provider.waitForRequests(1);
    expect(() => thread.run("third", { whenBusy: "fail" })).toThrow(ThreadBusyError);
    release();
    const [a, b] = await Promise.all([first.completed, second.completed]);
    expect(order).toEqual(["first completed", "second started"]);
    expect(a.id).not.toBe(b.id);
    expect(a).toMatchObject({ status: "completed", finalText: "first answer" });
    expect(b).toMatchObject({ status: "completed", finalText: "second answer" });
    expect(a.items.filter((item) => item.type === "userMessage")).toHaveLength(1);
    expect(codex.provider.requests.map((request) => request.lastUserText())).toEqual(["first prompt", "first prompt", "second prompt"]);
  });

  it("a queued turn interrupted before it started never reaches codex; the next one runs", async () => {
    const { codex, thread, release } = await startWithGate([gatedCommand(), reply.text("first answer"), reply.text("third answer")]);
    const first = thread.run("first prompt");
    const controller = new AbortController();
    const cancelled = thread.run("never sent", { signal: controller.signal });
    const third = thread.run("third prompt");
    await codex.provider.waitForRequests(1);
    controller.abort();
    await expect(cancelled.completed).rejects.toBeInstanceOf(RequestAbortedError);
    release();
    expect((await third.completed).finalText).toBe("third answer");
    expect((await first.completed).finalText).toBe("first answer");
    expect(codex.provider.requests.flatMap((request) => request.userTexts())).not.toContain("never sent");
  });
});
