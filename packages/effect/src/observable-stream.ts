// Core's Observables as Effect Streams. Only the shape of `subscribe` is used, so this package
// imports no rxjs of its own. Ending the Stream (Stream.take, runHead, interruption) unsubscribes,
// and in core unsubscribing never interrupts a turn.
import { Effect, Queue, Stream } from "effect";
import { type CodexError, causeOf } from "./errors.js";

/** What this package needs of an Observable: rxjs's `subscribe` with an observer. */
export interface Subscribable<A> {
  subscribe(observer: { next(value: A): void; error(error: unknown): void; complete(): void }): { unsubscribe(): void };
}

/** A hot Observable as a Stream: values from the moment the Stream runs; a core error fails it with its tagged error. */
export function streamFrom<A>(source: Subscribable<A>): Stream.Stream<A, CodexError> {
  return Stream.callback<A, CodexError>((queue) =>
    Effect.acquireRelease(
      Effect.sync(() =>
        source.subscribe({
          next: (value) => void Queue.offerUnsafe(queue, value),
          error: (thrown) => void Queue.failCauseUnsafe(queue, causeOf(thrown)),
          complete: () => void Queue.endUnsafe(queue),
        }),
      ),
      (subscription) => Effect.sync(() => subscription.unsubscribe()),
    ),
  );
}

/**
 * Keeps every value of a hot Observable from the moment it is made, so a Stream run later (in
 * another fiber, after the scope gave the turn out) still sees the turn from its start. Each
 * `stream()` replays what came, then follows live. Lives as long as the turn's scope.
 */
export class ReplayLog<A> {
  readonly #values: A[] = [];
  #end: { readonly error: unknown } | "complete" | undefined;
  readonly #listeners = new Set<() => void>();
  readonly #subscription: { unsubscribe(): void };

  constructor(source: Subscribable<A>) {
    this.#subscription = source.subscribe({
      next: (value) => {
        this.#values.push(value);
        this.#wake();
      },
      error: (error) => {
        this.#end = { error };
        this.#wake();
      },
      complete: () => {
        this.#end = "complete";
        this.#wake();
      },
    });
  }

  #wake(): void {
    for (const listener of this.#listeners) listener();
  }

  /** Stops recording (the turn's scope closed); Streams running then end after what they had. */
  close(): void {
    this.#subscription.unsubscribe();
    if (this.#end === undefined) this.#end = "complete";
    this.#wake();
  }

  stream(): Stream.Stream<A, CodexError> {
    return Stream.callback<A, CodexError>((queue) => {
      let sent = 0;
      const pump = (): void => {
        while (sent < this.#values.length) Queue.offerUnsafe(queue, this.#values[sent++] as A);
        const end = this.#end;
        if (end === "complete") Queue.endUnsafe(queue);
        else if (end !== undefined) Queue.failCauseUnsafe(queue, causeOf(end.error));
      };
      return Effect.acquireRelease(
        Effect.sync(() => {
          this.#listeners.add(pump);
          pump();
        }),
        () => Effect.sync(() => this.#listeners.delete(pump)),
      );
    });
  }
}
