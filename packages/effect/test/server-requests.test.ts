// Server requests answered by Effects whose requirements come from the Layer (in-memory server).
import { userInputAnswers } from "@codex-rpc/core";
import { it } from "@effect/vitest";
import { Context, Data, Effect, Layer, Schema } from "effect";
import { describe, expect } from "vitest";
import { CodexClient, type CodexLayerOptions, defineEffectTool } from "../src/index.js";
import { FakeServer, layerFake } from "../src/testing.js";

class Answers extends Context.Service<Answers, { readonly colour: string }>()("test/Answers") {}
const answers = Layer.succeed(Answers, { colour: "Blue" });

const question = { id: "colour", header: "Colour", question: "Which colour?", isOther: true, isSecret: false, options: null };
const userInputParams = { threadId: "t", turnId: "u", itemId: "i", isBlocking: true, autoResolutionMs: null, questions: [question] };

const withServer = <R>(options: CodexLayerOptions<R>, layer: Layer.Layer<R>) => Effect.provide(layerFake({}, options).pipe(Layer.provide(layer)));

describe("server requests as Effects", () => {
  it.live("userInput is answered by an Effect that reads a service of the Layer", () =>
    Effect.gen(function* () {
      const server = yield* FakeServer;
      const answer = yield* Effect.promise(() => server.request("item/tool/requestUserInput", userInputParams));
      expect(answer).toEqual({ result: { answers: { colour: { answers: ["Blue"] } } } });
    }).pipe(withServer({ userInput: () => Effect.map(Effect.service(Answers), ({ colour }) => userInputAnswers({ colour })) }, answers)),
  );

  it.live("a handler that fails is core's handler error: the server gets -32603", () =>
    Effect.gen(function* () {
      const server = yield* FakeServer;
      const answer = yield* Effect.promise(() => server.request("item/tool/requestUserInput", userInputParams));
      expect(answer).toMatchObject({ error: { code: -32603 } });
    }).pipe(withServer({ userInput: () => Effect.fail("no answers today") }, Layer.empty)),
  );

  it.live("handlers by method win, typed by the protocol", () =>
    Effect.gen(function* () {
      const server = yield* FakeServer;
      const answer = yield* Effect.promise(() => server.request("item/tool/requestUserInput", userInputParams));
      expect(answer).toEqual({ result: { answers: { colour: { answers: ["Blue"] } } } });
    }).pipe(
      withServer(
        { handlers: { "item/tool/requestUserInput": () => Effect.map(Effect.service(Answers), ({ colour }) => userInputAnswers({ colour })) } },
        answers,
      ),
    ),
  );

  it.live("a failure with no message (a Data.TaggedError, a plain object) tells codex its _tag, never its fields", () => {
    class NoReviewer extends Data.TaggedError("NoReviewer")<{ readonly apiKey: string }> {}
    const failing = (name: string, failure: unknown) =>
      defineEffectTool({ name, description: "x", schema: Schema.Struct({}), handler: () => Effect.fail(failure) });
    const tools = [failing("tagged", new NoReviewer({ apiKey: "sk-SECRET-1" })), failing("plain", { reason: "nope", token: "sk-SECRET-2" })];
    const call = (tool: string) => ({ threadId: "t", turnId: "u", callId: "c", namespace: null, tool, arguments: {} });
    return Effect.gen(function* () {
      const server = yield* FakeServer;
      const approval = yield* Effect.promise(() => server.request("item/tool/requestUserInput", userInputParams));
      const tagged = yield* Effect.promise(() => server.request("item/tool/call", call("tagged")));
      const plain = yield* Effect.promise(() => server.request("item/tool/call", call("plain")));
      // Before: "client handler for … failed: " (empty) and "[object Object]".
      expect(approval).toMatchObject({ error: { code: -32603, message: expect.stringMatching(/failed: NoReviewer$/) } });
      expect(JSON.stringify(tagged)).toMatch(/failed: NoReviewer/);
      expect(JSON.stringify(plain)).toMatch(/failed: failed with a value of type object/);
      expect(JSON.stringify([approval, tagged, plain])).not.toContain("SECRET");
    }).pipe(withServer({ tools, userInput: () => Effect.fail(new NoReviewer({ apiKey: "sk-SECRET-3" })) }, Layer.empty));
  });

  it.live("a tool whose schema decodes JSON into another type (Schema.Date) gets it from what the model sends", () => {
    const seen: unknown[] = [];
    const remind = defineEffectTool({
      name: "remind",
      description: "Sets a reminder.",
      schema: Schema.Struct({ at: Schema.Date }),
      handler: ({ at }) => Effect.sync(() => (seen.push(at), `set for ${at.toISOString()}`)),
    });
    const call = (args: unknown) => ({ threadId: "t", turnId: "u", callId: "c", namespace: null, tool: "remind", arguments: args });
    return Effect.gen(function* () {
      const server = yield* FakeServer;
      // Before, the JSON Schema said "string" but the arguments were checked against Date itself: every call failed.
      const answer = yield* Effect.promise(() => server.request("item/tool/call", call({ at: "2026-12-01T09:00:00.000Z" })));
      expect(answer).toEqual({ result: { success: true, contentItems: [{ type: "inputText", text: "set for 2026-12-01T09:00:00.000Z" }] } });
      expect(seen).toEqual([new Date("2026-12-01T09:00:00.000Z")]);
      const bad = yield* Effect.promise(() => server.request("item/tool/call", call({ at: "not a date" })));
      expect(bad).toMatchObject({ result: { success: false } });
      yield* (yield* CodexClient).startThread();
      const start = server.received.find((m) => "method" in m && m.method === "thread/start") as { params: { dynamicTools: { inputSchema: unknown }[] } };
      expect(start.params.dynamicTools[0]?.inputSchema).toMatchObject({ type: "object", properties: { at: { type: "string" } } });
    }).pipe(withServer({ tools: [remind] }, Layer.empty));
  });

  it.live("a tool declared with an Effect Schema gets decoded arguments; invalid ones never reach it", () => {
    const calls: unknown[] = [];
    const weather = defineEffectTool({
      name: "weather",
      description: "The forecast.",
      schema: Schema.Struct({ city: Schema.String, days: Schema.Number }),
      handler: (args) =>
        Effect.gen(function* () {
          const { colour } = yield* Answers;
          calls.push(args);
          return `${args.city} in ${args.days} days: ${colour} skies`;
        }),
    });
    const call = (args: unknown) => ({ threadId: "t", turnId: "u", callId: "c", namespace: null, tool: "weather", arguments: args });
    return Effect.gen(function* () {
      const server = yield* FakeServer;
      const good = yield* Effect.promise(() => server.request("item/tool/call", call({ city: "Paris", days: 2 })));
      const bad = yield* Effect.promise(() => server.request("item/tool/call", call({ city: 3 })));
      expect(good).toEqual({ result: { success: true, contentItems: [{ type: "inputText", text: "Paris in 2 days: Blue skies" }] } });
      expect(bad).toMatchObject({ result: { success: false } });
      expect(calls).toEqual([{ city: "Paris", days: 2 }]);
      // What thread/start declares: the Encoded side of the schema as JSON Schema.
      const codex = yield* CodexClient;
      yield* codex.startThread();
      const start = server.received.find((m) => "method" in m && m.method === "thread/start") as { params: { dynamicTools: unknown[] } };
      console.log("dynamicTools sent:", JSON.stringify(start.params.dynamicTools));
      expect(start.params.dynamicTools).toEqual([
        expect.objectContaining({ name: "weather", inputSchema: expect.objectContaining({ type: "object", required: ["city", "days"] }) }),
      ]);
    }).pipe(withServer({ tools: [weather] }, answers));
  });
});
