// A turn's events before the first run of its `events` Stream: recorded with each run of one
// item's deltas joined, handed to that first run, then dropped.
import { it } from "@effect/vitest";
import { ConnectionClosedError } from "@codex-rpc/core";
import { Effect, Exit, Fiber, Stream } from "effect";
import { Subject } from "rxjs";
import { describe, expect } from "vitest";
import { EventLog } from "../src/event-log.js";

interface Event {
  readonly method: string;
  readonly params: Record<string, unknown>;
}
const delta = (itemId: string, text: string, method = "item/agentMessage/delta"): Event => ({
  method,
  params: { threadId: "t", turnId: "u", itemId, delta: text },
});
const other = (method: string): Event => ({ method, params: { threadId: "t" } });
/** The turn's outcome when it ended well. */
const ended = () => Promise.resolve();

describe("EventLog", () => {
  it.live("keeps N deltas of one item as one event of their text: it grows with the text, not with the deltas", () =>
    Effect.gen(function* () {
      const subject = new Subject<Event>();
      const log = new EventLog(subject, ended);
      subject.next(other("turn/started"));
      const pieces = Array.from({ length: 10_000 }, (_, i) => `${i} `);
      for (const piece of pieces) subject.next(delta("m", piece));
      expect(log.size).toBe(2);
      subject.next(other("turn/completed"));
      subject.complete();
      const events = yield* Stream.runCollect(log.stream());
      expect(events).toEqual([other("turn/started"), delta("m", pieces.join("")), other("turn/completed")]);
    }),
  );

  it.live("large deltas are kept as they came (joining would copy them), and still replay as one event", () =>
    Effect.gen(function* () {
      const subject = new Subject<Event>();
      const log = new EventLog(subject, ended);
      const pieces = Array.from({ length: 200 }, (_, i) => `${i}`.padEnd(300, "x"));
      for (const piece of pieces) subject.next(delta("m", piece));
      subject.complete();
      expect(yield* Stream.runCollect(log.stream())).toEqual([delta("m", pieces.join(""))]);
    }),
  );

  it.live("a run of deltas ends at another item, another method or another event", () =>
    Effect.gen(function* () {
      const subject = new Subject<Event>();
      const log = new EventLog(subject, ended);
      for (const event of [
        delta("a", "1"),
        delta("a", "2"),
        delta("b", "x"),
        delta("a", "3"),
        delta("a", "o", "item/commandExecution/outputDelta"),
        other("item/completed"),
        delta("a", "4"),
      ])
        subject.next(event);
      subject.complete();
      expect(yield* Stream.runCollect(log.stream())).toEqual([
        delta("a", "12"),
        delta("b", "x"),
        delta("a", "3"),
        delta("a", "o", "item/commandExecution/outputDelta"),
        other("item/completed"),
        delta("a", "4"),
      ]);
    }),
  );

  it.live("the first run takes the log over and follows live; the log is dropped and later runs are live only", () =>
    Effect.gen(function* () {
      const subject = new Subject<Event>();
      const log = new EventLog(subject, ended);
      subject.next(other("before"));
      const first = yield* Effect.forkChild(Stream.runCollect(log.stream()));
      yield* Effect.yieldNow;
      expect(log.size).toBe(0);
      expect(subject.observers.length).toBe(1); // the run's own subscription; the log's is gone
      const second = yield* Effect.forkChild(Stream.runCollect(log.stream()));
      yield* Effect.yieldNow;
      subject.next(other("live"));
      subject.complete();
      expect(yield* Fiber.join(first)).toEqual([other("before"), other("live")]);
      expect(yield* Fiber.join(second)).toEqual([other("live")]);
      expect(subject.observed).toBe(false);
    }),
  );

  it.live("runHead on the first run still drops the log: nothing is kept after the Stream finished", () =>
    Effect.gen(function* () {
      const subject = new Subject<Event>();
      const log = new EventLog(subject, ended);
      subject.next(other("a"));
      subject.next(other("b"));
      expect((yield* Stream.runHead(log.stream()))._tag).toBe("Some");
      expect(log.size).toBe(0);
      expect(subject.observed).toBe(false);
    }),
  );

  it.live("close() drops the log and unsubscribes", () =>
    Effect.sync(() => {
      const subject = new Subject<Event>();
      const log = new EventLog(subject, ended);
      subject.next(other("a"));
      log.close();
      expect(subject.observed).toBe(false);
      expect(log.size).toBe(0);
    }),
  );

  it.live("a delta of the same item with another index, or without a text delta, starts a new entry", () =>
    Effect.gen(function* () {
      const subject = new Subject<Event>();
      const log = new EventLog(subject, ended);
      const indexed = (contentIndex: number, text: string): Event => ({
        method: "item/reasoning/textDelta",
        params: { threadId: "t", turnId: "u", itemId: "r", contentIndex, delta: text },
      });
      const noText: Event = { method: "item/agentMessage/delta", params: { threadId: "t", turnId: "u", itemId: "a" } };
      for (const event of [indexed(0, "x"), indexed(0, "y"), indexed(1, "z"), delta("a", "1"), noText, delta("a", "2"), delta("a", "3")]) subject.next(event);
      subject.complete();
      expect(yield* Stream.runCollect(log.stream())).toEqual([indexed(0, "xy"), indexed(1, "z"), delta("a", "1"), noText, delta("a", "23")]);
    }),
  );

  it.live("a turn that failed after the log recorded its end fails the first run with the turn's tagged error, after the events", () =>
    Effect.gen(function* () {
      const subject = new Subject<Event>();
      // Core completes a failed turn's events$; the cause is in `completed` only.
      const log = new EventLog<Event>(subject, () => Promise.reject(new ConnectionClosedError({ reason: "exit", exitCode: 1, signal: null, stderrTail: [] })));
      subject.next(delta("m", "cut "));
      subject.next(delta("m", "short"));
      subject.complete();
      const seen: Event[] = [];
      const exit = yield* Effect.exit(Stream.runForEach(log.stream(), (event) => Effect.sync(() => seen.push(event))));
      expect(seen).toEqual([delta("m", "cut short")]);
      expect(Exit.isFailure(exit) && exit.cause.toString()).toMatch(/ConnectionClosed/);
    }),
  );

  it.live("a run that follows live after the log fails with the turn's tagged error when the turn fails later", () =>
    Effect.gen(function* () {
      const subject = new Subject<Event>();
      const log = new EventLog<Event>(subject, () => Promise.reject(new ConnectionClosedError({ reason: "exit", exitCode: 1, signal: null, stderrTail: [] })));
      subject.next(other("turn/started"));
      const reading = yield* Effect.forkChild(Effect.exit(Stream.runCollect(log.stream())));
      while (log.size > 0) yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 1)));
      subject.next(delta("m", "late"));
      subject.complete();
      const exit = yield* Fiber.join(reading);
      expect(Exit.isFailure(exit) && exit.cause.toString()).toMatch(/ConnectionClosed/);
    }),
  );
});
