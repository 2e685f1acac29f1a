import type { Observable } from "rxjs";
import { QueueOverflowError } from "../errors/errors.js";

export interface AsyncIterableOptions {
  /**
   * How many unread values may queue up. Past it, later values are not queued: the loop yields
   * what it has, then throws QueueOverflowError (never a silent gap). Default: unbounded.
   */
  readonly highWaterMark?: number;
}

/**
 * `for await` over an Observable: values are queued until read; `break` (return()) unsubscribes,
 * which runs the Observable's teardown; an error is thrown from the loop.
 */
export function toAsyncIterable<T>(source: Observable<T>, options: AsyncIterableOptions = {}): AsyncIterable<T> {
  const highWaterMark = options.highWaterMark ?? Infinity;
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      const queue: T[] = [];
      let head = 0;
      let done = false;
      let failure: { error: unknown } | undefined;
      let wake: (() => void) | undefined;
      let subscription: { unsubscribe(): void } | undefined;
      subscription = source.subscribe({
        next: (value) => {
          if (failure) return;
          if (queue.length - head >= highWaterMark) {
            // Stop listening: a consumer this far behind sees the error, not a stream with a hole.
            failure = { error: new QueueOverflowError(highWaterMark) };
            subscription?.unsubscribe();
          } else queue.push(value);
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
            if (head < queue.length) {
              const value = queue[head] as T;
              queue[head++] = undefined as T;
              // Compact now and then: shift() is O(n) per value on a long queue.
              if (head > 1024 && head * 2 > queue.length) {
                queue.splice(0, head);
                head = 0;
              }
              return { done: false, value };
            }
            if (failure) throw failure.error;
            if (done) return { done: true, value: undefined };
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
          }
        },
        async return(): Promise<IteratorResult<T>> {
          subscription?.unsubscribe();
          queue.length = 0;
          head = 0;
          done = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
}
