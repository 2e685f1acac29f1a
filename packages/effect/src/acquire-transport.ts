// Opening a transport as a resource of the current Scope: acquired uninterruptibly, so one that
// opened is closed even when the Layer is interrupted before the client took it over. The client
// closes it first in the normal case; a transport's second close is a no-op.
import type { Transport } from "@codex-rpc/core";
import { Effect, type Scope } from "effect";
import { type CodexError, fromPromise } from "./errors.js";

export function acquireTransport<T extends Transport>(
  open: (signal?: AbortSignal) => Promise<T>,
  options: { readonly honoursSignal?: boolean } = {},
): Effect.Effect<T, CodexError, Scope.Scope> {
  const release = (transport: T) => Effect.promise(() => transport.close());
  // An opener that honours its AbortSignal (closes what it opened when aborted) may be interrupted;
  // one that does not (a spawn) is acquired uninterruptibly so a process that started is never lost.
  if (!options.honoursSignal)
    return Effect.acquireRelease(
      fromPromise(() => open()),
      release,
    );
  return Effect.uninterruptibleMask((restore) =>
    restore(fromPromise((signal) => open(signal))).pipe(Effect.tap((transport) => Effect.addFinalizer(() => release(transport)))),
  );
}
