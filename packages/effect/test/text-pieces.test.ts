// The text Stream's pieces: the deltas core delivers in one synchronous burst (one read of the
// transport) are one piece, so a consumer runs one Effect per read rather than per delta; the
// text, its order, an end and an error are as core's.
import { it } from "@effect/vitest";
import { Effect, Exit, Fiber, Stream } from "effect";
import { Subject } from "rxjs";
import { describe, expect } from "vitest";
import { streamFrom } from "../src/observable-stream.js";
import { joinedPerBurst } from "../src/text-pieces.js";
import { ServerError } from "@codex-rpc/core";

const nextMacrotask = () => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 0)));
/** Until the forked reader subscribed: a value sent before that goes nowhere (the source is hot). */
const subscribed = (source: Subject<string>) =>
  Effect.promise(async () => {
    while (!source.observed) await new Promise((resolve) => setTimeout(resolve, 1));
  });

describe("joinedPerBurst", () => {
  it.live("joins what arrives together, keeps apart what does not, and ends after the last piece", () =>
    Effect.gen(function* () {
      const deltas = new Subject<string>();
      const reading = yield* Effect.forkChild(Stream.runCollect(streamFrom(joinedPerBurst(deltas))));
      yield* subscribed(deltas);
      deltas.next("Hel");
      deltas.next("lo");
      yield* nextMacrotask();
      deltas.next(", ");
      deltas.next("world");
      // Ended in the same burst as the last deltas: they are flushed before the end.
      deltas.complete();
      expect(yield* Fiber.join(reading)).toEqual(["Hello", ", world"]);
    }),
  );

  it.live("flushes the burst before an error, which fails the Stream with its tagged error", () =>
    Effect.gen(function* () {
      const deltas = new Subject<string>();
      const seen: string[] = [];
      const reading = yield* Effect.forkChild(
        Effect.exit(Stream.runForEach(streamFrom(joinedPerBurst(deltas)), (piece) => Effect.sync(() => seen.push(piece)))),
      );
      yield* subscribed(deltas);
      deltas.next("a");
      deltas.next("b");
      deltas.error(new ServerError("turn/start", 1, -32000, "boom", undefined));
      const exit = yield* Fiber.join(reading);
      expect(seen).toEqual(["ab"]);
      expect(Exit.isFailure(exit) && exit.cause.toString()).toMatch(/ServerError/);
    }),
  );

  it.live("drops a burst under way when the Stream stops (take)", () =>
    Effect.gen(function* () {
      const deltas = new Subject<string>();
      const reading = yield* Effect.forkChild(Stream.runCollect(Stream.take(streamFrom(joinedPerBurst(deltas)), 1)));
      yield* subscribed(deltas);
      deltas.next("first");
      yield* nextMacrotask();
      expect(yield* Fiber.join(reading)).toEqual(["first"]);
      // Nobody listens any more: later deltas go nowhere and nothing throws.
      deltas.next("late");
      yield* nextMacrotask();
      expect(deltas.observed).toBe(false);
    }),
  );
});
