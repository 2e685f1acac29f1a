// Core's Observables as Effect Streams. Only the shape of `subscribe` is used, so this package
// imports no rxjs of its own. Ending the Stream (Stream.take, runHead, interruption) unsubscribes,
// and in core unsubscribing never interrupts a turn.
import { type Cause, Effect, Queue, Stream } from "effect";
import { type CodexError, causeOf } from "./errors.js";

/** What this package needs of an Observable: rxjs's `subscribe` with an observer. */
export interface Subscribable<A> {
  subscribe(observer: { next(value: A): void; error(error: unknown): void; complete(): void }): { unsubscribe(): void };
}

/** Forwards `source` into a Stream's queue: each value offered, an error as its tagged failure, the end as the end. */
export function subscribeInto<A>(source: Subscribable<A>, queue: Queue.Enqueue<A, CodexError | Cause.Done>): { unsubscribe(): void } {
  return source.subscribe({
    next: (value) => void Queue.offerUnsafe(queue, value),
    error: (thrown) => void Queue.failCauseUnsafe(queue, causeOf(thrown)),
    complete: () => void Queue.endUnsafe(queue),
  });
}

/**
 * A hot Observable as a Stream: `missed()` (values from before the run, if any) first, then the
 * values from the moment the Stream runs. Both happen in one synchronous step, so with a source
 * that emits synchronously (core's) nothing falls between them. A core error fails it with its
 * tagged error.
 */
export function streamFrom<A>(source: Subscribable<A>, missed?: () => Iterable<A>): Stream.Stream<A, CodexError> {
  return Stream.callback<A, CodexError>((queue) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        if (missed) for (const value of missed()) Queue.offerUnsafe(queue, value);
        return subscribeInto(source, queue);
      }),
      (subscription) => Effect.sync(() => subscription.unsubscribe()),
    ),
  );
}

/**
 * `source`, whose end waits for `outcome()` (asked for only then): it ends when that resolves and
 * fails with what it rejects with. Core completes a turn's streams when the turn fails (codex gone, a timeout) and puts
 * the cause in `completed` only; a Stream that just ended would pass truncated text for the whole.
 */
export function endingAs<A>(source: Subscribable<A>, outcome: () => PromiseLike<unknown>): Subscribable<A> {
  return {
    subscribe(observer) {
      let open = true;
      const subscription = source.subscribe({
        next: (value) => observer.next(value),
        error: (error) => observer.error(error),
        complete: () =>
          void outcome().then(
            () => open && observer.complete(),
            (error: unknown) => open && observer.error(error),
          ),
      });
      return {
        unsubscribe: () => {
          open = false;
          subscription.unsubscribe();
        },
      };
    },
  };
}
