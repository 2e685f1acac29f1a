// The CodexClient service and its Layer over the in-memory FakeAppServer (@effect/vitest).
import { it } from "@effect/vitest";
import { clientInternals } from "@codex-rpc/core/testing";
import { Context, Effect, Exit, Fiber, Layer, Option, Schedule, Stream } from "effect";
import { describe, expect } from "vitest";
import { CodexClient, type EffectTurn } from "../src/index.js";
import { FakeServer, layerFake } from "../src/testing.js";

const sentMethods = (server: FakeServer["Service"]) => server.received.flatMap((m) => ("method" in m ? [m.method] : []));

/** The client sent `turn/interrupt` and the turn ended `interrupted`. */
const expectInterruptedOnServer = (turn: EffectTurn) =>
  Effect.gen(function* () {
    expect(sentMethods(yield* FakeServer)).toContain("turn/interrupt");
    const completed = yield* Effect.promise(() => turn.turn.completed);
    expect(completed.status).toBe("interrupted");
  });

describe("CodexClient service over the in-memory server", () => {
  it.live("runs a turn: its text as a Stream, its end as an Effect", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const thread = yield* codex.startThread();
      const turn = yield* thread.run("hello");
      const text = yield* Stream.runCollect(turn.text);
      const completed = yield* turn.completed;
      expect({ text, status: completed.status, finalText: completed.finalText }).toEqual({ text: ["Hi", "!"], status: "completed", finalText: "Hi!" });
    }).pipe(Effect.provide(layerFake({ turns: [{ deltas: ["Hi", "!"] }] }))),
  );

  it.live("Stream.take on a turn's text does not interrupt the turn", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const server = yield* FakeServer;
      const thread = yield* codex.startThread();
      const turn = yield* thread.run("hello");
      const first = yield* Stream.runCollect(Stream.take(turn.text, 1));
      const head = yield* Stream.runHead(turn.text);
      const completed = yield* turn.completed;
      // A later run gets the text that streamed before it as one piece (replayed from core's fold).
      const again = yield* Stream.runCollect(turn.text);
      expect([first, again, completed.status, completed.finalText]).toEqual([["a"], ["abc"], "completed", "abc"]);
      // runHead gets what streamed before it as one piece (how much of the text depends on when it ran).
      expect(Option.isSome(head) && head.value.length > 0 && "abc".startsWith(head.value)).toBe(true);
      expect(sentMethods(server)).not.toContain("turn/interrupt");
    }).pipe(Effect.provide(layerFake({ turns: [{ deltas: ["a", "b", "c"] }] }))),
  );

  it.live("notifications(method) is a Stream of that method's params", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const completedTurns = yield* Effect.forkChild(Stream.runHead(codex.notifications("turn/completed")));
      yield* Effect.yieldNow;
      const thread = yield* codex.startThread();
      yield* thread.runToEnd("hello");
      const params = yield* Fiber.join(completedTurns);
      expect(Option.map(params, (p) => p.turn.status)).toEqual(Option.some("completed"));
    }).pipe(Effect.provide(layerFake({ turns: [{ deltas: ["x"] }] }))),
  );

  it.live("notifications(method) ends when the client closes", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const all = yield* Effect.forkChild(Stream.runCollect(codex.notifications("turn/completed")));
      yield* Effect.yieldNow;
      yield* Effect.promise(() => codex.client.close());
      expect(yield* Fiber.join(all)).toEqual([]);
    }).pipe(Effect.provide(layerFake())),
  );

  it.live("notifications(method) fails with ConnectionClosed when the server goes away", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const server = yield* FakeServer;
      const all = yield* Effect.forkChild(Effect.flip(Stream.runCollect(codex.notifications("turn/completed"))), { startImmediately: true });
      yield* Effect.yieldNow;
      server.crash({ exitCode: 9 });
      // Before, it ended as if the program had closed the client.
      const error = yield* Fiber.join(all);
      expect(error._tag).toBe("ConnectionClosed");
      if (error._tag === "ConnectionClosed") expect(error.exitCode).toBe(9);
    }).pipe(Effect.provide(layerFake())),
  );

  it.live("overload past the retry budget is ServerOverloaded, caught by tag", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const tag = yield* codex.startThread().pipe(
        Effect.map(() => "started"),
        Effect.catchTag("ServerOverloaded", (error) => Effect.succeed(`${error._tag} ${error.rpcCode} ${error.attempts}`)),
      );
      expect(tag).toMatch(/^ServerOverloaded -32001 \d+$/);
    }).pipe(Effect.provide(layerFake({ overload: { "thread/start": 100 } }))),
  );

  it.live("a retry Schedule given with the request runs it again", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const server = yield* FakeServer;
      let calls = 0;
      server.respond("thread/list", () => (++calls < 3 ? { error: { code: -32603, message: "not yet" } } : { result: { data: [], nextCursor: null } }));
      const result = yield* codex.request("thread/list", {}, { retry: Schedule.recurs(5) });
      expect([calls, result.data]).toEqual([3, []]);
    }).pipe(Effect.provide(layerFake())),
  );

  it.live("a crash mid-turn is ConnectionClosed with the exit details", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const server = yield* FakeServer;
      const thread = yield* codex.startThread();
      const turn = yield* thread.run("hold");
      yield* Effect.sync(() => setTimeout(() => server.crash({ exitCode: 3, stderrTail: ["boom"] }), 20));
      const error = yield* Effect.flip(turn.completed);
      expect(error._tag).toBe("ConnectionClosed");
      if (error._tag === "ConnectionClosed") expect([error.reason, error.exitCode, error.stderrTail]).toEqual(["exit", 3, ["boom"]]);
    }).pipe(Effect.provide(layerFake({ turns: [{ hold: true }] }))),
  );

  it.live("a crash mid-turn fails the turn's text, items and events Streams with ConnectionClosed, a run after it too", () =>
    Effect.gen(function* () {
      const server = yield* FakeServer;
      const thread = yield* (yield* CodexClient).startThread();
      const turn = yield* thread.run("hold");
      yield* Effect.promise(() => turn.turn.started);
      const runs = [turn.text, turn.items, turn.events].map((stream) =>
        Effect.forkChild(Effect.flip(Stream.runCollect(stream as Stream.Stream<unknown, { _tag: string }>)), { startImmediately: true }),
      );
      const fibers = yield* Effect.all(runs);
      yield* Effect.sleep("20 millis");
      server.crash({ exitCode: 3 });
      // Before, core's completion passed through: each Stream ended successfully, with the text so far.
      for (const fiber of fibers) expect((yield* Fiber.join(fiber))._tag).toBe("ConnectionClosed");
      expect((yield* Effect.flip(Stream.runCollect(turn.text)))._tag).toBe("ConnectionClosed");
    }).pipe(Effect.provide(layerFake({ turns: [{ deltas: ["a", "b"], hold: true }] }))),
  );

  it.live(
    "closing a turn's Scope waits stopGrace at most for a server that never ends the interrupted turn",
    () =>
      Effect.gen(function* () {
        const server = yield* FakeServer;
        server.respond("turn/interrupt", () => ({ result: {} }));
        const thread = yield* (yield* CodexClient).startThread();
        yield* Effect.scoped(
          Effect.gen(function* () {
            const turn = yield* thread.run("hold", { stopGrace: "100 millis" });
            yield* Effect.promise(() => turn.turn.started);
          }),
        );
        // Before, the Scope's close waited for the turn's end for ever (this test ran out of time).
        expect(sentMethods(server)).toContain("turn/interrupt");
      }).pipe(Effect.provide(layerFake({ turns: [{ deltas: ["a"], hold: true }] }))),
    10_000,
  );

  it.live("a request timeout given as a Duration is RequestTimeout", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const server = yield* FakeServer;
      server.respond("thread/list", () => new Promise<never>(() => {}));
      const error = yield* Effect.flip(codex.request("thread/list", {}, { timeout: "50 millis" }));
      expect(error._tag).toBe("RequestTimeout");
      if (error._tag === "RequestTimeout") expect([error.method, error.timeoutMs]).toEqual(["thread/list", 50]);
    }).pipe(Effect.provide(layerFake())),
  );

  it.live("interrupting a request's fiber aborts it in core (nothing left pending)", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const server = yield* FakeServer;
      server.respond("thread/list", () => new Promise<never>(() => {}));
      const fiber = yield* Effect.forkChild(codex.request("thread/list", {}));
      yield* Effect.sleep("20 millis");
      yield* Fiber.interrupt(fiber);
      expect(clientInternals(codex.client).connection.pendingRequestCount).toBe(0);
    }).pipe(Effect.provide(layerFake())),
  );

  it.live("another codex version with strictVersion fails the Layer with ProtocolVersionMismatch", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Effect.provide(Effect.asVoid(Effect.service(CodexClient)), layerFake({ codexVersion: "0.1.0" }, { strictVersion: true })),
      );
      expect(error._tag).toBe("ProtocolVersionMismatch");
      if (error._tag === "ProtocolVersionMismatch") expect(error.serverVersion).toBe("0.1.0");
    }),
  );

  it.live("interrupting the fiber awaiting a turn interrupts it on the server and waits for its end", () =>
    Effect.gen(function* () {
      const thread = yield* (yield* CodexClient).startThread();
      const turn = yield* thread.run("hold");
      const fiber = yield* Effect.forkChild(turn.completed);
      yield* Effect.sleep("20 millis");
      yield* Fiber.interrupt(fiber);
      yield* expectInterruptedOnServer(turn);
    }).pipe(Effect.provide(layerFake({ turns: [{ hold: true }] }))),
  );

  it.live("closing the scope a turn was run in interrupts the turn if it still runs", () =>
    Effect.gen(function* () {
      const thread = yield* (yield* CodexClient).startThread();
      const turn = yield* Effect.scoped(thread.run("hold"));
      yield* expectInterruptedOnServer(turn);
    }).pipe(Effect.provide(layerFake({ turns: [{ hold: true }] }))),
  );

  it.live("a Stream run after the turn began still sees its events from the start", () =>
    Effect.gen(function* () {
      const codex = yield* CodexClient;
      const thread = yield* codex.startThread();
      const turn = yield* thread.run("hello");
      yield* turn.completed;
      const methods = yield* Stream.runCollect(Stream.map(turn.events, (event) => event.method));
      expect(methods[0]).toBe("turn/started");
      expect(methods.at(-1)).toBe("turn/completed");
    }).pipe(Effect.provide(layerFake({ turns: [{ deltas: ["a"] }] }))),
  );

  it.live(
    "a Layer still in its handshake can be interrupted: Effect.timeout returns without waiting for the request timeout",
    () =>
      Effect.gen(function* () {
        // The server never answers initialize; the handshake would wait 60 s for it. Before, the
        // handshake ran uninterruptibly (acquireRelease's acquire) and this test ran out of time.
        const exit = yield* Effect.exit(
          Effect.scoped(Layer.build(layerFake({ stalled: true }, { requestTimeoutMs: 60_000 }))).pipe(Effect.timeout("200 millis")),
        );
        expect(Exit.isFailure(exit)).toBe(true);
      }),
    10_000,
  );

  it.live("closing the Layer closes the client", () =>
    Effect.gen(function* () {
      const client = yield* Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(layerFake());
          return Context.get(context, CodexClient).client;
        }),
      );
      expect(client.state).toBe("closed");
    }),
  );
});
