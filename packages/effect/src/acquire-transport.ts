// Opening a transport as a resource of the current Scope: acquired uninterruptibly, so one that
// opened is closed even when the Layer is interrupted before the client took it over. The client
// closes it first in the normal case; a transport's second close is a no-op.
import type { Transport } from "@codex-rpc/core";
import { Effect, type Scope } from "effect";
import { type CodexError, fromPromise } from "./errors.js";

export function acquireTransport<T extends Transport>(open: () => Promise<T>): Effect.Effect<T, CodexError, Scope.Scope> {
  return Effect.acquireRelease(
    fromPromise(() => open()),
    (transport) => Effect.promise(() => transport.close()),
  );
}
