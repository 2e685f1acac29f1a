import { Observable, type Subscriber, type TeardownLogic } from "rxjs";

/**
 * Where a transport puts the messages it receives, for `Transport.messages$`: everything received
 * before the first subscriber is kept and replayed to it, in order; after that, messages go
 * straight to the live subscribers (a Subject hop per message costs more than the framing).
 * `complete()` ends the stream for current and later subscribers.
 */
export class MessageInbox<T> {
  readonly messages$: Observable<T>;
  /** Replaced, never changed, when a subscriber joins or leaves: `deliver` is an indexed loop. */
  #live: readonly Subscriber<T>[] = [];
  /** Messages received before the first subscriber; undefined once it has subscribed. */
  #backlog: T[] | undefined = [];
  #completed = false;

  constructor() {
    this.messages$ = new Observable<T>((subscriber) => this.#subscribe(subscriber));
  }

  deliver(message: T): void {
    if (this.#backlog) this.#backlog.push(message);
    else {
      const live = this.#live;
      for (let i = 0; i < live.length; i++) live[i]!.next(message);
    }
  }

  complete(): void {
    this.#completed = true;
    const live = this.#live;
    this.#live = [];
    for (const subscriber of live) subscriber.complete();
  }

  #subscribe(subscriber: Subscriber<T>): TeardownLogic {
    const backlog = this.#backlog;
    if (backlog) {
      // The backlog stays in place while it is replayed, so a message that arrives during the
      // replay (a synchronous source) is appended and replayed in order, not lost.
      for (let i = 0; i < backlog.length && !subscriber.closed; i++) subscriber.next(backlog[i]!);
      this.#backlog = undefined;
    }
    if (subscriber.closed) return;
    if (this.#completed) {
      subscriber.complete();
      return;
    }
    this.#live = [...this.#live, subscriber];
    return () => {
      this.#live = this.#live.filter((other) => other !== subscriber);
    };
  }
}
