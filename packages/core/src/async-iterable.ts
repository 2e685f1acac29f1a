import type { Observable } from "rxjs";

/**
 * `for await` over an Observable: values are queued until read; `break` (return()) unsubscribes,
 * which runs the Observable's teardown; an error is thrown from the loop.
 */
export function toAsyncIterable<T>(source: Observable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      const queue: T[] = [];
      let done = false;
      let failure: { error: unknown } | undefined;
      let wake: (() => void) | undefined;
      const subscription = source.subscribe({
        next: (value) => {
          queue.push(value);
          wake?.();
        },
        error: (error: unknown) => {
          failure = { error };
          wake?.();
        },
        complete: () => {
          done = true;
          wake?.();
        },
      });
      return {
        async next(): Promise<IteratorResult<T>> {
          for (;;) {
            if (queue.length > 0) return { done: false, value: queue.shift() as T };
            if (failure) throw failure.error;
            if (done) return { done: true, value: undefined };
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
          }
        },
        async return(): Promise<IteratorResult<T>> {
          subscription.unsubscribe();
          queue.length = 0;
          done = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
}
