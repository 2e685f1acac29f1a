// The text Stream without a Queue: what came while the reader was away is one piece, the reader
// wakes in a microtask (no scheduler macrotask), the end waits for the turn's outcome (and fails
// with its tagged error), and ending the Stream unsubscribes.
import { it } from "@effect/vitest";
import { ConnectionClosedError, ServerError } from "@codex-rpc/core";
import { Effect, Exit, Fiber, Option, Stream } from "effect";
import { Subject } from "rxjs";
import { describe, expect } from "vitest";
import { pulledText } from "../src/pull-stream.js";

/** Until the forked reader subscribed: a value sent before that goes nowhere (the source is hot). */
const subscribed = (source: { readonly observed: boolean }) =>
  Effect.promise(async () => {
    while (!source.observed) await new Promise((resolve) => setTimeout(resolve, 1));
  });
const microtasks = (n: number) =>
  Effect.promise(async () => {
    for (let i = 0; i < n; i++) await Promise.resolve();
  });
const nextMacrotask = () => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 0)));
const ended = () => Promise.resolve();
const nothingMissed = () => "";

describe("pulledText", () => {
  it.live("what was missed comes first, then the text; what came together is one piece; the end ends it and unsubscribes", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const reading = yield* Effect.forkChild(Stream.runCollect(pulledText(source, ended, () => "Before. ")));
      yield* subscribed(source);
      source.next("Hel");
      source.next("lo");
      yield* nextMacrotask();
      source.next(", ");
      source.next("world");
      // Ended in the same burst as the last deltas: they come before the end.
      source.complete();
      expect(yield* Fiber.join(reading)).toEqual(["Before. ", "Hello", ", world"]);
      expect(source.observed).toBe(false);
    }),
  );

  it.live("the reader runs in a microtask after the text came, not a macrotask later", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const seen: string[] = [];
      const reading = yield* Effect.forkChild(Stream.runForEach(pulledText(source, ended, nothingMissed), (piece) => Effect.sync(() => seen.push(piece))));
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

  it.live("an error fails it with its tagged error after the text before it", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const seen: string[] = [];
      const reading = yield* Effect.forkChild(
        Effect.exit(Stream.runForEach(pulledText(source, ended, nothingMissed), (piece) => Effect.sync(() => seen.push(piece)))),
      );
      yield* subscribed(source);
      source.next("a");
      source.next("b");
      source.error(new ServerError("turn/start", 1, -32000, "boom", undefined));
      const exit = yield* Fiber.join(reading);
      expect(seen).toEqual(["ab"]);
      expect(Exit.isFailure(exit) && exit.cause.toString()).toMatch(/ServerError/);
      expect(source.observed).toBe(false);
    }),
  );

  it.live("an end whose turn failed (core only completes) fails it with the turn's tagged error, after the text", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const closed = new ConnectionClosedError({ reason: "exit", exitCode: null, signal: "SIGKILL", stderrTail: [] });
      const seen: string[] = [];
      const reading = yield* Effect.forkChild(
        Effect.exit(
          Stream.runForEach(
            pulledText(source, () => Promise.reject(closed), nothingMissed),
            (piece) => Effect.sync(() => seen.push(piece)),
          ),
        ),
      );
      yield* subscribed(source);
      source.next("cut short");
      source.complete();
      const exit = yield* Fiber.join(reading);
      expect(seen).toEqual(["cut short"]);
      expect(Exit.isFailure(exit) && exit.cause.toString()).toMatch(/ConnectionClosed/);
    }),
  );

  it.live("Stream.take ends the run and unsubscribes; the source runs on for a later run", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const reading = yield* Effect.forkChild(Stream.runCollect(Stream.take(pulledText(source, ended, nothingMissed), 1)));
      yield* subscribed(source);
      source.next("a");
      yield* nextMacrotask();
      expect(yield* Fiber.join(reading)).toEqual(["a"]);
      expect(source.observed).toBe(false);
      // Nobody listens any more: later text goes nowhere and nothing throws.
      source.next("late");
      const later = yield* Effect.forkChild(Stream.runCollect(pulledText(source, ended, nothingMissed)));
      yield* subscribed(source);
      source.next("c");
      source.complete();
      expect(yield* Fiber.join(later)).toEqual(["c"]);
    }),
  );

  it.live("interrupting the reading fiber while it waits unsubscribes", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const reading = yield* Effect.forkChild(Stream.runDrain(pulledText(source, ended, nothingMissed)));
      yield* subscribed(source);
      yield* microtasks(3);
      yield* Fiber.interrupt(reading);
      expect(source.observed).toBe(false);
    }),
  );

  it.live("text that comes just as the waiting reader is interrupted wakes nobody: the run ends interrupted, and a later run still reads", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const seen: string[] = [];
      const reading = yield* Effect.forkChild(Stream.runForEach(pulledText(source, ended, nothingMissed), (piece) => Effect.sync(() => seen.push(piece))));
      yield* subscribed(source);
      yield* microtasks(3);
      // The wake is queued in a microtask; the interruption comes before it runs.
      source.next("late");
      yield* Fiber.interrupt(reading);
      const exit = yield* Fiber.await(reading);
      yield* microtasks(3);
      expect(Exit.hasInterrupts(exit)).toBe(true);
      expect(seen).toEqual([]);
      const again = yield* Effect.forkChild(Stream.runCollect(Stream.take(pulledText(source, ended, nothingMissed), 1)));
      yield* subscribed(source);
      source.next("next");
      expect(yield* Fiber.join(again)).toEqual(["next"]);
    }),
  );

  it.live("a pull interrupted while it waits (Stream.toPull with a timeout) loses nothing: text that comes before the next pull goes to that pull", () =>
    Effect.gen(function* () {
      const source = new Subject<string>();
      const pull = yield* Stream.toPull(pulledText(source, ended, nothingMissed));
      // Nothing yet: the waiting pull is interrupted by the timeout; the run goes on.
      expect(Option.isNone(yield* Effect.timeoutOption(pull, "5 millis"))).toBe(true);
      source.next("kept");
      yield* microtasks(3);
      expect(yield* Effect.timeoutOption(pull, "50 millis")).toEqual(Option.some(["kept"]));
    }).pipe(Effect.scoped),
  );
});
