// A turn as a scoped resource: what it keeps while it runs. Core keeps the fold and, for the first
// run of `events`, the events before it (`keepEvents`, whose deltas cost no memory of their own);
// the binding keeps nothing, and no item snapshot is built unless an `items` Stream runs.
import { it } from "@effect/vitest";
import type { DefaultProtocolTypes } from "@codex-rpc/core";
import { turnSubscriberCount } from "@codex-rpc/core/testing";
import { Effect, Fiber, Stream } from "effect";
import { describe, expect } from "vitest";
import { CodexClient, type EffectTurn, type EffectTurnOptions } from "../src/index.js";
import { FakeServer, layerFake } from "../src/testing.js";

/** A held turn once its scripted deltas streamed, and a way to stream more. */
const heldTurn = (options?: EffectTurnOptions<DefaultProtocolTypes, undefined>) =>
  Effect.gen(function* () {
    const thread = yield* (yield* CodexClient).startThread();
    const turn = yield* thread.run("hold", options);
    const turnId = yield* Effect.promise(() => turn.turn.started);
    yield* Effect.promise(() => waitFor(() => turn.turn.itemsSoFar()[0]?.phase === "delta"));
    const server = yield* FakeServer;
    const more = (delta: string) =>
      Effect.sync(() => server.notify("item/agentMessage/delta", { threadId: thread.id, turnId, itemId: `${turnId}-message`, delta }));
    return { turn, more } as { turn: EffectTurn; more: (delta: string) => Effect.Effect<void> };
  });

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe("a turn's Streams cost what core costs", () => {
  it.live("while no Stream runs, the turn holds no subscription (core keeps the events) and core builds no item snapshot", () =>
    Effect.gen(function* () {
      const { turn } = yield* heldTurn();
      // Before: events, items and text were each recorded from the start (3 subscriptions, a snapshot
      // per delta); then an events log subscribed (1 subscription, a call and a copy of the text per delta).
      expect(turnSubscriberCount(turn.turn)).toBe(0);
    }).pipe(Effect.scoped, Effect.provide(layerFake({ turns: [{ deltas: ["a", "b"], hold: true }] }))),
  );

  it.live("once the first events run ended and text was read, nothing of the turn is kept by the binding", () =>
    Effect.gen(function* () {
      const { turn } = yield* heldTurn();
      const head = yield* Stream.runHead(turn.events);
      expect(head._tag).toBe("Some");
      yield* Stream.runCollect(Stream.take(turn.text, 1));
      expect(turnSubscriberCount(turn.turn)).toBe(0);
      expect(turn.turn.takeEvents()).toEqual([]); // the first run took what core kept for it
    }).pipe(Effect.scoped, Effect.provide(layerFake({ turns: [{ deltas: ["a", "b"], hold: true }] }))),
  );

  it.live("a text run started mid-turn gets what streamed before it as one piece, then the deltas", () =>
    Effect.gen(function* () {
      const { turn, more } = yield* heldTurn();
      const text = yield* Effect.forkChild(Stream.runCollect(turn.text));
      const items = yield* Effect.forkChild(
        Stream.runCollect(Stream.map(turn.items, ({ phase, item }) => [phase, item.type === "agentMessage" ? item.text : ""])),
      );
      yield* Effect.yieldNow;
      yield* more("c");
      yield* turn.interrupt;
      yield* Effect.promise(() => turn.turn.completed);
      expect(yield* Fiber.join(text)).toEqual(["ab", "c"]);
      expect(yield* Fiber.join(items)).toEqual([
        ["delta", "ab"],
        ["delta", "abc"],
      ]);
      // Every later run sees the whole text too.
      expect((yield* Stream.runCollect(turn.text)).join("")).toBe("abc");
    }).pipe(Effect.scoped, Effect.provide(layerFake({ turns: [{ deltas: ["a", "b"], hold: true }] }))),
  );

  // Over NDJSON bytes, as from a pipe: the fake server writes each message at once, so the three
  // sent in one step are decoded and delivered in one synchronous burst, as one read would be.
  it.live("deltas that arrive together are one piece of text: one Effect per read for a Stream consumer", () =>
    Effect.gen(function* () {
      const { turn, more } = yield* heldTurn();
      const text = yield* Effect.forkChild(Stream.runCollect(turn.text));
      // The text run subscribed: what is sent from here on goes to it live.
      yield* Effect.promise(() => waitFor(() => turnSubscriberCount(turn.turn) === 1));
      yield* Effect.all([more("c"), more("d"), more("e")]);
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)));
      yield* more("f");
      yield* turn.interrupt;
      yield* Effect.promise(() => turn.turn.completed);
      expect(yield* Fiber.join(text)).toEqual(["ab", "cde", "f"]);
    }).pipe(Effect.scoped, Effect.provide(layerFake({ framing: "ndjson", turns: [{ deltas: ["a", "b"], hold: true }] }))),
  );

  it.live("replayEvents: false keeps no events log: nothing subscribed while no Stream runs, and a late first events run sees what comes after it", () =>
    Effect.gen(function* () {
      const { turn, more } = yield* heldTurn({ replayEvents: false });
      expect(turnSubscriberCount(turn.turn)).toBe(0);
      const events = yield* Effect.forkChild(Stream.runCollect(Stream.map(turn.events, (event) => event.method)));
      yield* Effect.promise(() => waitFor(() => turnSubscriberCount(turn.turn) === 1));
      yield* more("c");
      yield* turn.interrupt;
      yield* Effect.promise(() => turn.turn.completed);
      // No turn/started, item/started nor the deltas "a" and "b": they came before the run.
      expect(yield* Fiber.join(events)).toEqual(["item/agentMessage/delta", "turn/completed"]);
    }).pipe(Effect.scoped, Effect.provide(layerFake({ turns: [{ deltas: ["a", "b"], hold: true }] }))),
  );

  it.live("by default the same late first events run gets the turn from its start (the deltas before it joined)", () =>
    Effect.gen(function* () {
      const { turn, more } = yield* heldTurn();
      const events = yield* Effect.forkChild(
        Stream.runCollect(Stream.map(turn.events, (event) => [event.method, (event.params as { delta?: string }).delta ?? ""])),
      );
      yield* Effect.promise(() => waitFor(() => turnSubscriberCount(turn.turn) === 1 && turn.turn.itemsSoFar().length > 0));
      yield* Effect.yieldNow;
      yield* more("c");
      yield* turn.interrupt;
      yield* Effect.promise(() => turn.turn.completed);
      const seen = yield* Fiber.join(events);
      expect(seen[0]).toEqual(["turn/started", ""]);
      expect(seen.filter(([method]) => method === "item/agentMessage/delta")).toEqual([
        ["item/agentMessage/delta", "ab"],
        ["item/agentMessage/delta", "c"],
      ]);
    }).pipe(Effect.scoped, Effect.provide(layerFake({ turns: [{ deltas: ["a", "b"], hold: true }] }))),
  );
});

describe("a turn core refuses at once", () => {
  it.live('whenBusy: "fail" on a busy thread fails run with the tagged ThreadBusy, which catchTag catches (not a defect)', () =>
    Effect.gen(function* () {
      const thread = yield* (yield* CodexClient).startThread();
      yield* thread.run("first");
      const caught = yield* Effect.scoped(thread.run("second", { whenBusy: "fail" })).pipe(
        Effect.as("no error"),
        Effect.catchTag("ThreadBusy", (error) => Effect.succeed(`ThreadBusy ${error.code}`)),
      );
      expect(caught).toBe("ThreadBusy THREAD_BUSY");
    }).pipe(Effect.scoped, Effect.provide(layerFake({ turns: [{ hold: true }] }))),
  );
});

describe("runToEnd", () => {
  it.live("keeps no events for an events Stream it never gives out (core's keepEvents off: no comparison per delta, no copy of reasoning)", () =>
    Effect.gen(function* () {
      const thread = yield* (yield* CodexClient).startThread();
      const keepEvents: unknown[] = [];
      const run = thread.thread.run.bind(thread.thread);
      thread.thread.run = ((input, options) => {
        keepEvents.push(options?.keepEvents);
        return run(input, options);
      }) as typeof thread.thread.run;
      yield* thread.runToEnd("hello");
      yield* thread.runToEnd("again", { replayEvents: true });
      expect(keepEvents).toEqual([false, false]);
    }).pipe(Effect.scoped, Effect.provide(layerFake({ turns: [{ deltas: ["a", "b"] }, { deltas: ["c"] }] }))),
  );
});
