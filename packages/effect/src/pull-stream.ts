// A hot Observable as a Stream without a Queue: the values wait in an array, and the pull of the
// fiber reading the Stream is resumed in a microtask once values came. Through an Effect Queue (what
// Stream.callback builds on) an offer wakes the taker through the scheduler's setImmediate, and the
// taker then takes again; here the reading fiber runs in the microtask after the values came, with
// all of them, and takes nothing twice. Used where a value costs the reader an Effect (the text).
import { Cause, Channel, Effect, Scope, Stream } from "effect";
import { type CodexError, causeOf } from "./errors.js";
import type { Subscribable } from "./observable-stream.js";

type Pull<A> = Effect.Effect<readonly [A, ...A[]], CodexError | Cause.Done>;

/**
 * `missed()` (values from before the run, if any) first, then `source`'s values from the moment the
 * Stream runs, taken in one synchronous step (nothing falls between). An error fails it with its
 * tagged error after the values before it; the end ends it. Ending the Stream unsubscribes.
 */
export function pulledStream<A>(source: Subscribable<A>, missed?: () => Iterable<A>): Stream.Stream<A, CodexError> {
  return Stream.fromChannel(
    Channel.fromTransform((_, scope) =>
      Effect.suspend(() => {
        let values: A[] = missed ? [...missed()] : [];
        let end: Pull<A> | undefined;
        let waiting: ((pull: Pull<A>) => void) | undefined;
        let wakeQueued = false;
        const take = (): Pull<A> | undefined => {
          if (values.length === 0) return end;
          const taken = values as unknown as readonly [A, ...A[]];
          values = [];
          return Effect.succeed(taken);
        };
        // Never inside the source's own call: the reader runs in a microtask, after what came together.
        const wake = (): void => {
          wakeQueued = false;
          const resume = waiting;
          const pull = resume && take();
          if (pull === undefined) return;
          waiting = undefined;
          resume?.(pull);
        };
        const arrived = (): void => {
          if (waiting === undefined || wakeQueued) return;
          wakeQueued = true;
          queueMicrotask(wake);
        };
        const subscription = source.subscribe({
          next: (value) => {
            values.push(value);
            arrived();
          },
          error: (thrown) => {
            end ??= Effect.failCause(causeOf(thrown));
            arrived();
          },
          complete: () => {
            end ??= Cause.done();
            arrived();
          },
        });
        const pull: Pull<A> = Effect.suspend(
          () =>
            take() ??
            Effect.callback<readonly [A, ...A[]], CodexError | Cause.Done>((resume) => {
              waiting = resume;
              return Effect.sync(() => {
                waiting = undefined;
              });
            }),
        );
        return Effect.as(
          Scope.addFinalizer(
            scope,
            Effect.sync(() => subscription.unsubscribe()),
          ),
          pull,
        );
      }),
    ),
  );
}
