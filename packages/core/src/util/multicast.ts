import { Observable, type Subscriber } from "rxjs";

/**
 * A hot stream for the message path: a Set of subscribers called directly. It does what a Subject
 * does here at a fraction of the cost per value (RxJS's Subject copies and iterates its observers
 * through several wrappers on every `next`, which at a million messages is most of the time).
 */
export class Multicast<T> {
  readonly observable: Observable<T>;
  private readonly subscribers = new Set<Subscriber<T>>();
  private ended = false;

  /** `onLeave` runs after a subscriber leaves (unsubscribes before the end). */
  constructor(private readonly hooks: { onJoin?(): void; onLeave?(): void } = {}) {
    this.observable = new Observable<T>((subscriber) => {
      if (this.ended) {
        subscriber.complete();
        return;
      }
      this.subscribers.add(subscriber);
      this.hooks.onJoin?.();
      return () => {
        if (this.subscribers.delete(subscriber)) this.hooks.onLeave?.();
      };
    });
  }

  /** Whether anyone listens: callers skip building values nobody will see. */
  get observed(): boolean {
    return this.subscribers.size > 0;
  }

  /** How many subscribers are live (for leak checks). */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  next(value: T): void {
    for (const subscriber of this.subscribers) subscriber.next(value);
  }

  /** Ends every subscription; later subscribers complete at once. */
  complete(): void {
    if (this.ended) return;
    this.ended = true;
    const subscribers = [...this.subscribers];
    this.subscribers.clear();
    for (const subscriber of subscribers) subscriber.complete();
  }
}
