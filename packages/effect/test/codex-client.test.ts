import { Effect, Fiber, Stream } from "effect";
import { describe, expect, it } from "vitest";
import { CodexClient } from "../src/index.js";
import { FakeServer, layerFake } from "../src/testing.js";

const run = <A, E>(effect: Effect.Effect<A, E, CodexClient | FakeServer>, layer = layerFake({ turns: [{ deltas: ["Hi", "!"] }] })) =>
  Effect.runPromise(Effect.provide(effect, layer));

describe("CodexClient service over the in-memory server", () => {
  it("runs a turn: its text as a Stream, its end as an Effect", async () => {
    const result = await run(
      Effect.gen(function* () {
        const codex = yield* CodexClient;
        const thread = yield* codex.startThread();
        return yield* Effect.scoped(
          Effect.gen(function* () {
            const turn = yield* thread.run("hello");
            const text = yield* Stream.runCollect(turn.text);
            const completed = yield* turn.completed;
            return { text, status: completed.status, finalText: completed.finalText };
          }),
        );
      }),
    );
    expect(result).toEqual({ text: ["Hi", "!"], status: "completed", finalText: "Hi!" });
  });

  it("overload past the retry budget is ServerOverloaded, caught by tag", async () => {
    const tag = await run(
      Effect.gen(function* () {
        const codex = yield* CodexClient;
        return yield* codex.startThread().pipe(
          Effect.map(() => "started"),
          Effect.catchTag("ServerOverloaded", (error) => Effect.succeed(`${error._tag} ${error.rpcCode} ${error.attempts}`)),
        );
      }),
      layerFake({ overload: { "thread/start": 100 } }),
    );
    expect(tag).toMatch(/^ServerOverloaded -32001 \d+$/);
  });

  it("a crash mid-turn is ConnectionClosed with the exit details", async () => {
    const error = await run(
      Effect.gen(function* () {
        const codex = yield* CodexClient;
        const server = yield* FakeServer;
        const thread = yield* codex.startThread();
        return yield* Effect.scoped(
          Effect.gen(function* () {
            const turn = yield* thread.run("hold");
            yield* Effect.sync(() => setTimeout(() => server.crash({ exitCode: 3, stderrTail: ["boom"] }), 20));
            return yield* Effect.flip(turn.completed);
          }),
        );
      }),
      layerFake({ turns: [{ hold: true }] }),
    );
    expect(error._tag).toBe("ConnectionClosed");
    if (error._tag === "ConnectionClosed") expect([error.exitCode, error.stderrTail]).toEqual([3, ["boom"]]);
  });

  it("a request timeout given as a Duration is RequestTimeout", async () => {
    const error = await run(
      Effect.gen(function* () {
        const codex = yield* CodexClient;
        const server = yield* FakeServer;
        server.respond("thread/list", () => new Promise<never>(() => {}));
        return yield* Effect.flip(codex.request("thread/list", {}, { timeout: "50 millis" }));
      }),
    );
    expect(error._tag).toBe("RequestTimeout");
    if (error._tag === "RequestTimeout") expect([error.method, error.timeoutMs]).toEqual(["thread/list", 50]);
  });

  it("another codex version with strictVersion fails the Layer with ProtocolVersionMismatch", async () => {
    const error = await Effect.runPromise(
      Effect.flip(Effect.provide(Effect.asVoid(Effect.service(CodexClient)), layerFake({ codexVersion: "0.1.0" }, { strictVersion: true }))),
    );
    expect(error._tag).toBe("ProtocolVersionMismatch");
    if (error._tag === "ProtocolVersionMismatch") expect(error.serverVersion).toBe("0.1.0");
  });

  it("interrupting the fiber awaiting a turn interrupts it on the server", async () => {
    const status = await run(
      Effect.gen(function* () {
        const codex = yield* CodexClient;
        const server = yield* FakeServer;
        const thread = yield* codex.startThread();
        return yield* Effect.scoped(
          Effect.gen(function* () {
            const turn = yield* thread.run("hold");
            const fiber = yield* Effect.forkChild(turn.completed);
            yield* Effect.sleep("20 millis");
            yield* Fiber.interrupt(fiber);
            const sent = server.received.map((m) => ("method" in m ? m.method : ""));
            const completed = yield* Effect.promise(() => turn.turn.completed);
            return { sent: sent.includes("turn/interrupt"), status: completed.status };
          }),
        );
      }),
      layerFake({ turns: [{ hold: true }] }),
    );
    expect(status).toEqual({ sent: true, status: "interrupted" });
  });
});
