// Core's Observables as Streams: values in order, a core error as its tagged failure, and ending
// the Stream unsubscribes (which in core never interrupts anything).
import { RequestTimeoutError } from "@codex-rpc/core";
import { it } from "@effect/vitest";
import { Effect, Fiber, Stream } from "effect";
import { Subject } from "rxjs";
import { describe, expect } from "vitest";
import { streamFrom } from "../src/observable-stream.js";

describe("streamFrom", () => {
  it.live("delivers values until the Observable completes; take unsubscribes", () =>
    Effect.gen(function* () {
      const subject = new Subject<number>();
      const all = yield* Effect.forkChild(Stream.runCollect(streamFrom(subject)));
      const first = yield* Effect.forkChild(Stream.runCollect(Stream.take(streamFrom(subject), 1)));
      yield* Effect.yieldNow;
      subject.next(1);
      subject.next(2);
      subject.complete();
      expect(yield* Fiber.join(all)).toEqual([1, 2]);
      expect(yield* Fiber.join(first)).toEqual([1]);
      expect(subject.observed).toBe(false);
    }),
  );

  it.live("a core error fails the Stream with its tagged error", () =>
    Effect.gen(function* () {
      const subject = new Subject<number>();
      const fiber = yield* Effect.forkChild(Effect.flip(Stream.runCollect(streamFrom(subject))));
      yield* Effect.yieldNow;
      subject.error(new RequestTimeoutError("thread/list", 1, 10));
      expect((yield* Fiber.join(fiber))._tag).toBe("RequestTimeout");
    }),
  );

  it.live("gives what the run missed first, then follows live", () =>
    Effect.gen(function* () {
      const subject = new Subject<string>();
      const run = yield* Effect.forkChild(Stream.runCollect(streamFrom(subject, () => ["missed"])));
      yield* Effect.yieldNow;
      subject.next("live");
      subject.complete();
      expect(yield* Fiber.join(run)).toEqual(["missed", "live"]);
    }),
  );
});
