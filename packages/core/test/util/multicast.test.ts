import { describe, expect, it } from "vitest";
import type { Subscription } from "rxjs";
import { Multicast } from "../../src/util/multicast.js";

describe("Multicast", () => {
  it("gives every value to every subscriber, in order, and counts them", () => {
    const stream = new Multicast<number>();
    const a: number[] = [];
    const b: number[] = [];
    stream.observable.subscribe((value) => a.push(value));
    const second = stream.observable.subscribe((value) => b.push(value));
    expect(stream.subscriberCount).toBe(2);
    stream.next(1);
    second.unsubscribe();
    stream.next(2);
    expect(a).toEqual([1, 2]);
    expect(b).toEqual([1]);
    expect(stream.subscriberCount).toBe(1);
    expect(stream.observed).toBe(true);
  });

  it("fixes who gets a value when it is sent: one who joins during it waits for the next, one who leaves during it is not called", () => {
    const stream = new Multicast<string>();
    const seen: string[] = [];
    let joined = false;
    let second: Subscription | undefined;
    stream.observable.subscribe((value) => {
      seen.push(`first ${value}`);
      if (!joined) stream.observable.subscribe((v) => seen.push(`late ${v}`));
      joined = true;
      second?.unsubscribe();
    });
    second = stream.observable.subscribe((value) => seen.push(`second ${value}`));
    stream.next("a");
    stream.next("b");
    expect(seen).toEqual(["first a", "first b", "late b"]);
  });

  it("runs onJoin and onLeave, once per subscriber, and completes everyone at the end", () => {
    const events: string[] = [];
    const stream = new Multicast<number>({ onJoin: () => events.push("join"), onLeave: () => events.push("leave") });
    const one = stream.observable.subscribe({ complete: () => events.push("complete one") });
    stream.observable.subscribe({ complete: () => events.push("complete two") });
    one.unsubscribe();
    one.unsubscribe();
    stream.complete();
    stream.observable.subscribe({ complete: () => events.push("complete late") });
    expect(events).toEqual(["join", "join", "leave", "complete two", "complete late"]);
    expect(stream.subscriberCount).toBe(0);
  });
});
