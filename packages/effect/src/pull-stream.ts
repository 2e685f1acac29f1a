// A turn's text deltas as an Effect Stream, at about the cost of core's own subscriber. A Stream
// consumer runs an Effect per element, which costs more than core's call per delta, so the text
// that came while the reader was away (at least every delta of one read of the transport: core
// delivers them in one synchronous burst) is one piece. There is no Queue: the text waits in one
// string, and the pull of the reading fiber is resumed in a microtask once text came. Through an
// Effect Queue (what Stream.callback builds on) an offer wakes the taker through the scheduler's
// setImmediate, and the taker then takes again; here the reader runs in the microtask after the
// burst, with all of it. One subscriber per delta does it all (joining, the end, the wake).
import { Cause, Channel, Effect, Scope, Stream } from "effect";
import { type CodexError, causeOf } from "./errors.js";
import type { Subscribable } from "./observable-stream.js";

type Pull = Effect.Effect<readonly [string], CodexError | Cause.Done>;

/**
 * `missed()` (the text from before the run, "" for none) first, then `source`'s strings from the
 * moment the Stream runs, taken in one synchronous step (nothing falls between), what came between
 * two pulls joined. When `source` completes, the Stream ends once `outcome()` resolves, or fails
 * with the tagged error it rejects with (core only completes a failed turn's streams: text cut
 * short must not pass for the whole). An error of `source` fails it after the text before it.
 * Ending the Stream unsubscribes.
 */
export function pulledText(source: Subscribable<string>, outcome: () => PromiseLike<unknown>, missed: () => string): Stream.Stream<string, CodexError> {
  return Stream.fromChannel(
    Channel.fromTransform((_, scope) =>
      Effect.suspend(() => {
        let pending: string | undefined = missed() || undefined;
        let end: Pull | undefined;
        let waiting: ((pull: Pull) => void) | undefined;
        let wakeQueued = false;
        let open = true;
        const take = (): Pull | undefined => {
          if (pending === undefined) return end;
          const piece = pending;
          pending = undefined;
          return Effect.succeed([piece]);
        };
        // Never inside the source's own call: the reader runs in a microtask, after what came together.
        const wake = (): void => {
          wakeQueued = false;
          const resume = waiting;
          if (resume === undefined) return;
          const pull = take();
          if (pull === undefined) return;
          waiting = undefined;
          resume(pull);
        };
        const arrived = (): void => {
          if (waiting === undefined || wakeQueued) return;
          wakeQueued = true;
          queueMicrotask(wake);
        };
        const ended = (pull: Pull): void => {
          if (!open) return;
          end ??= pull;
          arrived();
        };
        const subscription = source.subscribe({
          next: (piece) => {
            pending = pending === undefined ? piece : pending + piece;
            arrived();
          },
          error: (thrown) => ended(Effect.failCause(causeOf(thrown))),
          complete: () =>
            void outcome().then(
              () => ended(Cause.done()),
              (thrown: unknown) => ended(Effect.failCause(causeOf(thrown))),
            ),
        });
        // A pull interrupted while it waits (a timeout on a `Stream.toPull` pull) may be followed by
        // another: its resume must go, or text that comes in between would be taken to wake a fiber
        // that no longer listens and be lost. One finalizer for the run, not one per read.
        const forget = Effect.sync(() => {
          waiting = undefined;
        });
        const pull: Pull = Effect.suspend(
          () =>
            take() ??
            Effect.callback<readonly [string], CodexError | Cause.Done>((resume) => {
              waiting = resume;
              return forget;
            }),
        );
        return Effect.as(
          Scope.addFinalizer(
            scope,
            Effect.sync(() => {
              open = false;
              subscription.unsubscribe();
            }),
          ),
          pull,
        );
      }),
    ),
  );
}
