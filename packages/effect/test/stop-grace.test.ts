// stopGrace as a Duration input: any length, Duration.infinity included, is waited for as given
// (a setTimeout of more than 2^31−1 ms fires after 1 ms, which closed the scope with the turn still running).
import { it } from "@effect/vitest";
import { Duration, Effect, Stream } from "effect";
import { describe, expect } from "vitest";
import { CodexClient } from "../src/index.js";
import { FakeServer, layerFake } from "../src/testing.js";

const sentMethods = (server: FakeServer["Service"]) => server.received.flatMap((m) => ("method" in m ? [m.method] : []));

/** The server answers `turn/interrupt` at once and ends the turn `interrupted` only after `delayMs`. */
const slowInterrupt = (server: FakeServer["Service"], delayMs: number) =>
  server.respond("turn/interrupt", (params) => {
    const { threadId, turnId } = params as { threadId: string; turnId: string };
    setTimeout(() => {
      const turn = {
        id: turnId,
        status: "interrupted",
        items: [],
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
        itemsView: "full",
        rootTurnId: null,
      };
      server.notify("thread/status/changed", { threadId, status: { type: "idle" } });
      server.notify("turn/completed", { threadId, turn });
    }, delayMs);
    return { result: {} };
  });

describe("closing a running turn's scope with a long stopGrace", () => {
  for (const stopGrace of [Duration.infinity, Duration.days(30)] as const) {
    it.live(`stopGrace ${Duration.format(stopGrace)}: closing the turn's scope waits for codex to end the turn`, () =>
      Effect.gen(function* () {
        const server = yield* FakeServer;
        slowInterrupt(server, 300);
        const thread = yield* (yield* CodexClient).startThread();
        const turn = yield* Effect.scoped(
          Effect.gen(function* () {
            const turn = yield* thread.run("hold", { stopGrace });
            yield* Stream.runHead(turn.text);
            return turn;
          }),
        );
        expect(sentMethods(server)).toContain("turn/interrupt");
        // Closed only once the server reported the turn ended.
        const ended = yield* Effect.promise(() =>
          Promise.race([turn.turn.completed.then((c) => c.status), new Promise((r) => setTimeout(() => r("still running"), 0))]),
        );
        expect(ended).toBe("interrupted");
      }).pipe(Effect.provide(layerFake({ turns: [{ hold: true, deltas: ["a"] }] }))),
    );
  }
});
