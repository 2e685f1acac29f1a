// A server-request handler Effect still running when the Layer's scope closes: its fiber must not
// outlive the client it would answer through.
import { it } from "@effect/vitest";
import { Effect, Schema } from "effect";
import { describe, expect } from "vitest";
import { CodexClient, defineEffectTool } from "../src/index.js";
import { FakeServer, layerFake } from "../src/testing.js";

const question = { id: "colour", header: "Colour", question: "Which colour?", isOther: true, isSecret: false, options: null };
const userInputParams = { threadId: "t", turnId: "u", itemId: "i", isBlocking: true, autoResolutionMs: null, questions: [question] };

describe("handler fibers and the Layer's scope", () => {
  for (const kind of ["userInput", "handlers", "tool"] as const) {
    it.live(`a ${kind} Effect still running is interrupted when the Layer's scope closes`, () => {
      const seen = { started: 0, interrupted: 0 };
      const never = Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => seen.interrupted++)));
      const handler = () => Effect.suspend(() => (seen.started++, never));
      const tool = defineEffectTool({ name: "slow", description: "x", schema: Schema.Struct({}), handler });
      const options =
        kind === "userInput" ? { userInput: handler } : kind === "handlers" ? { handlers: { "item/tool/requestUserInput": handler } } : { tools: [tool] };
      return Effect.gen(function* () {
        yield* Effect.scoped(
          Effect.gen(function* () {
            yield* CodexClient;
            const server = yield* FakeServer;
            if (kind === "tool")
              void server.request("item/tool/call", { threadId: "t", turnId: "u", callId: "c", namespace: null, tool: "slow", arguments: {} });
            else void server.request("item/tool/requestUserInput", userInputParams);
            for (let i = 0; i < 100 && seen.started === 0; i++) yield* Effect.sleep("5 millis");
          }).pipe(Effect.provide(layerFake({}, options))),
        );
        yield* Effect.sleep("50 millis");
        expect(seen).toEqual({ started: 1, interrupted: 1 });
      });
    });
  }
});
