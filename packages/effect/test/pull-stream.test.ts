// A hot Observable as a Stream without a Queue: what came while the reader was away is one pull,
// the reader wakes in a microtask (no scheduler macrotask), and order, errors, the end and the
// unsubscribing are as streamFrom's.
import { it } from "@effect/vitest";
import { ServerError } from "@codex-rpc/core";
import { Effect, Exit, Fiber, Stream } from "effect";
import { Subject } from "rxjs";
import { describe, expect } from "vitest";
import { pulledStream } from "../src/pull-stream.js";

/** Until the forked reader subscribed: a value sent before that goes nowhere (the source is hot). */
const subscribed = (source: { readonly observed: boolean }) =>
  Effect.promise(async () => {
    while (!source.observed) await new Promise((resolve) => setTimeout(resolve, 1));
  });
const microtasks = (n: number) =>
  Effect.promise(async () => {
    for (let i = 0; i < n; i++) await Promise.resolve();
  });

describe("pulledStream", () => {
  it.live("what was missed comes first, then the values; what came together is one pull; the end ends it and unsubscribes", () =>
    Effect.gen(function* () {
      const source = new Subject<number>();
      const reading = yield* Effect.forkChild(Stream.runCollect(Stream.chunks(pulledStream<number>(source, () => [0]))));
      yield* subscribed(source);
      source.next(1);
      source.next(2);
      source.next(3);
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1)));
      source.next(4);
      source.complete();
      const chunks = yield* Fiber.join(reading);
      expect(chunks.flat()).toEqual([0, 1, 2, 3, 4]);
      expect(chunks).toContainEqual([1, 2, 3]);
      expect(source.observed).toBe(false);
    }),
  );

  it.live("the reader runs in a microtask after the values came, not a macrotask later", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const seen: string[] = [];
      const reading = yield* Effect.forkChild(Stream.runForEach(pulledStream<string>(source), (value) => Effect.sync(() => seen.push(value))));
      yield* subscribed(source);
      // Through a Queue (Stream.callback) the reader would be woken by the scheduler's setImmediate.
      yield* Effect.promise(async () => {
        source.next("a");
        for (let i = 0; i < 20 && seen.length === 0; i++) await Promise.resolve();
      });
      expect(seen).toEqual(["a"]);
      source.complete();
      yield* Fiber.join(reading);
    }),
  );

  it.live("an error fails it with its tagged error after the values before it", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const seen: string[] = [];
      const reading = yield* Effect.forkChild(Effect.exit(Stream.runForEach(pulledStream<string>(source), (value) => Effect.sync(() => seen.push(value)))));
      yield* subscribed(source);
      source.next("a");
      source.error(new ServerError("turn/start", 1, -32000, "boom", undefined));
      const exit = yield* Fiber.join(reading);
      expect(seen).toEqual(["a"]);
      expect(Exit.isFailure(exit) && exit.cause.toString()).toMatch(/ServerError/);
      expect(source.observed).toBe(false);
    }),
  );

  it.live("Stream.take ends the run and unsubscribes; the source runs on for a later run", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const reading = yield* Effect.forkChild(Stream.runCollect(Stream.take(pulledStream<string>(source), 1)));
      yield* subscribed(source);
      source.next("a");
      source.next("b");
      expect(yield* Fiber.join(reading)).toEqual(["a"]);
      expect(source.observed).toBe(false);
      const later = yield* Effect.forkChild(Stream.runCollect(pulledStream<string>(source)));
      yield* subscribed(source);
      source.next("c");
      source.complete();
      expect(yield* Fiber.join(later)).toEqual(["c"]);
    }),
  );

  it.live("interrupting the reading fiber while it waits unsubscribes", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const reading = yield* Effect.forkChild(Stream.runDrain(pulledStream<string>(source)));
      yield* subscribed(source);
      yield* microtasks(3);
      yield* Fiber.interrupt(reading);
      expect(source.observed).toBe(false);
    }),
  );
});
