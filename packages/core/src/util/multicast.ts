import { Observable, type Subscriber } from "rxjs";

/**
 * A hot stream for the message path: its subscribers called directly. It does what a Subject does
 * here at a fraction of the cost per value (RxJS's Subject copies and iterates its observers
 * through several wrappers on every `next`, which at a million messages is most of the time). The
 * subscribers are an array replaced when one joins or leaves (rare), so `next` (every message) is
 * an indexed loop with no iterator; as with a Subject, a subscriber that joins during `next` gets
 * the next value, and one that leaves (a closed subscriber ignores values) does not get this one.
 */
export class Multicast<T> {
  readonly observable: Observable<T>;
  private subscribers: readonly Subscriber<T>[] = [];
  private ended = false;

  /** `onLeave` runs after a subscriber leaves (unsubscribes before the end). */
  constructor(private readonly hooks: { onJoin?(): void; onLeave?(): void } = {}) {
    this.observable = new Observable<T>((subscriber) => {
      if (this.ended) {
        subscriber.complete();
        return;
      }
      this.subscribers = [...this.subscribers, subscriber];
      this.hooks.onJoin?.();
      return () => {
        const rest = this.subscribers.filter((other) => other !== subscriber);
        if (rest.length === this.subscribers.length) return;
        this.subscribers = rest;
        this.hooks.onLeave?.();
      };
    });
  }

  /** Whether anyone listens: callers skip building values nobody will see. */
  get observed(): boolean {
    return this.subscribers.length > 0;
  }

  /** How many subscribers are live (for leak checks). */
  get subscriberCount(): number {
    return this.subscribers.length;
  }

  next(value: T): void {
    const subscribers = this.subscribers;
    for (let i = 0; i < subscribers.length; i++) subscribers[i]!.next(value);
  }

  /** Ends every subscription; later subscribers complete at once. */
  complete(): void {
    if (this.ended) return;
    this.ended = true;
    const subscribers = this.subscribers;
    this.subscribers = [];
    for (const subscriber of subscribers) subscriber.complete();
  }
}
