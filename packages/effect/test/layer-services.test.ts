// The Layer's requirements are the union of what its handlers and tools need. Before, the options
// were `CodexLayerOptions<R>` with one R, which TypeScript does not infer as a union: an approval
// needing one service beside a tool or a user-input handler needing another failed to compile
// (checked by `tsc`, the package's typecheck, as much as by running this).
import { it } from "@effect/vitest";
import { Context, Effect, Layer, Schema } from "effect";
import { describe, expect } from "vitest";
import { CodexClient, defineEffectTool } from "../src/index.js";
import { layerNode } from "../src/node.js";
import { FakeServer, layerFake } from "../src/testing.js";

class Reviewer extends Context.Service<Reviewer, { readonly verdict: "accept" | "decline" }>()("test/Reviewer") {}
class Weather extends Context.Service<Weather, { readonly forecast: (city: string) => string }>()("test/Weather") {}
class Answers extends Context.Service<Answers, { readonly colour: string }>()("test/Answers") {}

const weather = defineEffectTool({
  name: "weather",
  description: "The forecast for a city.",
  schema: Schema.Struct({ city: Schema.String }),
  handler: ({ city }) => Effect.map(Effect.service(Weather), ({ forecast }) => forecast(city)),
});
const unused = defineEffectTool({
  name: "unused",
  description: "x",
  schema: Schema.Struct({}),
  handler: () => Effect.map(Effect.service(Answers), ({ colour }) => colour),
});

const question = { id: "colour", header: "Colour", question: "Which colour?", isOther: true, isSecret: false, options: null };
const userInputParams = { threadId: "t", turnId: "u", itemId: "i", isBlocking: true, autoResolutionMs: null, questions: [question] };
const services = Layer.mergeAll(
  Layer.succeed(Reviewer, { verdict: "accept" }),
  Layer.succeed(Weather, { forecast: (city) => `${city}: sunny` }),
  Layer.succeed(Answers, { colour: "Blue" }),
);

describe("a Layer's requirements from several handlers and tools", () => {
  it.live("an approval, two tools and a user-input handler, each needing its own service", () => {
    const codex = layerFake(
      {},
      {
        approvals: (request) => Effect.map(Effect.service(Reviewer), ({ verdict }) => (request.kind === "commandExecution" ? verdict : "decline")),
        tools: [weather, unused],
        userInput: ({ questions }) =>
          Effect.map(Effect.service(Answers), ({ colour }) => ({ answers: Object.fromEntries(questions.map((q) => [q.id, { answers: [colour] }])) })),
      },
    );
    // The requirements are the union; each is needed.
    const needs: Layer.Layer<CodexClient | FakeServer, unknown, Reviewer | Weather | Answers> = codex;
    // @ts-expect-error Weather and Answers are required too
    const notAll: Layer.Layer<CodexClient | FakeServer, unknown, Reviewer> = codex;
    void [needs, notAll];
    return Effect.gen(function* () {
      yield* CodexClient;
      const server = yield* FakeServer;
      const answer = yield* Effect.promise(() => server.request("item/tool/requestUserInput", userInputParams));
      const call = { threadId: "t", turnId: "u", callId: "c", namespace: null, tool: "weather", arguments: { city: "Paris" } };
      const tool = yield* Effect.promise(() => server.request("item/tool/call", call));
      expect(answer).toEqual({ result: { answers: { colour: { answers: ["Blue"] } } } });
      expect(JSON.stringify(tool)).toContain("Paris: sunny");
    }).pipe(Effect.provide(codex.pipe(Layer.provide(services))));
  });

  it("a misspelt option is still a type error; no handler, no requirement", () => {
    // @ts-expect-error `aprovals` is not an option
    const misspelt = layerNode({}, { aprovals: "decline" });
    const none: Layer.Layer<CodexClient, unknown, never> = layerNode({}, { approvals: "decline", requestTimeoutMs: 1_000 });
    expect([misspelt, none]).toHaveLength(2);
  });
});
