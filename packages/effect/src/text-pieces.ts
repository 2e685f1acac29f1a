// A turn's text deltas as the pieces an Effect Stream should carry: the deltas that arrive together
// (core delivers every message of one read of the transport in one synchronous burst) joined into
// one string, handed on in a microtask. A Stream consumer runs an Effect per element, which costs
// more than core's subscriber call per delta (about 0.1× of the whole dispatch on the 240 B codex
// workload, tools/bench/effect.mjs); joined, it runs one per read. Nothing is delayed past the
// burst, and the order and the text are the same.
import type { Subscribable } from "./observable-stream.js";

/** `source`'s strings, the ones emitted in one synchronous run joined; flushed before an end or error. */
export function joinedPerBurst(source: Subscribable<string>): Subscribable<string> {
  return {
    subscribe(observer) {
      let pending: string | undefined;
      let open = true;
      const flush = (): void => {
        const piece = pending;
        pending = undefined;
        if (piece !== undefined && open) observer.next(piece);
      };
      const subscription = source.subscribe({
        next: (piece) => {
          if (pending !== undefined) pending += piece;
          else {
            pending = piece;
            queueMicrotask(flush);
          }
        },
        error: (error) => {
          flush();
          observer.error(error);
        },
        complete: () => {
          flush();
          observer.complete();
        },
      });
      return {
        unsubscribe: () => {
          open = false;
          pending = undefined;
          subscription.unsubscribe();
        },
      };
    },
  };
}
