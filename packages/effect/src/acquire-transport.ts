// Opening a transport as a resource of the current Scope: acquired uninterruptibly, so one that
// opened is closed even when the Layer is interrupted before the client took it over. The client
// closes it first in the normal case; a transport's second close is a no-op.
import type { Transport } from "@codex-rpc/core";
import { Effect, type Scope } from "effect";
import { type CodexError, fromPromise } from "./errors.js";

/** A transport opened for the current Scope and closed with it; the open is uninterruptible (a spawn: a process that started is never lost). */
export function acquireTransport<T extends Transport>(open: () => Promise<T>): Effect.Effect<T, CodexError, Scope.Scope> {
  return Effect.acquireRelease(
    fromPromise(() => open()),
    (transport) => Effect.promise(() => transport.close()),
  );
}

/**
 * `open` for the current Scope, `close`d with it, where `open` honours its AbortSignal (undoes what
 * it began when aborted): the open can be interrupted (`Effect.timeout`, a fiber interrupted), and
 * the finalizer is added in the same uninterruptible step as its success.
 */
export function acquireAbortable<A>(
  open: (signal: AbortSignal) => Promise<A>,
  close: (value: A) => Promise<unknown>,
): Effect.Effect<A, CodexError, Scope.Scope> {
  return Effect.uninterruptibleMask((restore) =>
    restore(fromPromise(open)).pipe(Effect.tap((value) => Effect.addFinalizer(() => Effect.promise(() => close(value))))),
  );
}
