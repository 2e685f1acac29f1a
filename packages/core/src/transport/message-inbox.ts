import { Observable, type Subscriber, type TeardownLogic, type Unsubscribable } from "rxjs";

/** What `deliver` calls: an RxJS subscriber, or a listener of `listenDirectly`. */
type Receiver<T> = Pick<Subscriber<T>, "next" | "complete" | "closed">;

/** The inbox behind each `messages$` an inbox made, for `listenDirectly`. */
const inboxes = new WeakMap<Observable<unknown>, MessageInbox<unknown>>();

/**
 * Listens to a transport's `messages$`: when a MessageInbox made it, `onMessage` is called by the
 * inbox itself, without the three calls and checks an RxJS subscriber adds to every message (the
 * connection's one listener, on the hottest path); otherwise an ordinary subscription. `onMessage`
 * must not throw: it is the connection's dispatch, which guards everything it calls.
 */
export function listenDirectly<T>(messages$: Observable<T>, onMessage: (message: T) => void): Unsubscribable {
  const inbox = inboxes.get(messages$) as MessageInbox<T> | undefined;
  if (!inbox) return messages$.subscribe({ next: onMessage });
  return inbox.listen(onMessage);
}

/**
 * Where a transport puts the messages it receives, for `Transport.messages$`: everything received
 * before the first subscriber is kept and replayed to it, in order; after that, messages go
 * straight to the live subscribers (a Subject hop per message costs more than the framing).
 * `complete()` ends the stream for current and later subscribers.
 */
export class MessageInbox<T> {
  readonly messages$: Observable<T>;
  /** Replaced, never changed, when a subscriber joins or leaves: `deliver` is an indexed loop. */
  #live: readonly Receiver<T>[] = [];
  /** Messages received before the first subscriber; undefined once it has subscribed. */
  #backlog: T[] | undefined = [];
  #completed = false;

  constructor() {
    this.messages$ = new Observable<T>((subscriber) => this.#subscribe(subscriber));
    inboxes.set(this.messages$, this as MessageInbox<unknown>);
  }

  /** A plain listener, called as a subscriber would be (see `listenDirectly`). */
  listen(onMessage: (message: T) => void): Unsubscribable {
    const receiver: Receiver<T> & { closed: boolean } = {
      // A delivery under way when it stopped listening still holds it: like a closed subscriber, it ignores it.
      next: (message) => {
        if (!receiver.closed) onMessage(message);
      },
      // Completed: a delivery under way that still holds it must not reach it either.
      complete: () => {
        receiver.closed = true;
      },
      closed: false,
    };
    const teardown = this.#subscribe(receiver);
    return {
      unsubscribe: () => {
        receiver.closed = true;
        if (typeof teardown === "function") teardown();
      },
    };
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

  #subscribe(subscriber: Receiver<T>): TeardownLogic {
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
