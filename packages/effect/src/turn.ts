// A core CodexTurn as a scoped resource with Streams. Core does the routing, folding and the
// interrupt; this only maps its Observables and Promises into Effect terms.
import type { CodexTurn, CompletedTurn, DefaultProtocolTypes, ProtocolTypesShape, ServerNotificationOf, ThreadItemOf, TurnItemUpdate } from "@codex-rpc/core";
import { settlesWithin } from "@codex-rpc/core/transport";
import { Effect, type Scope, type Stream } from "effect";
import { type CodexError, causeOf, fromPromise } from "./errors.js";
import { endingAs, streamFrom } from "./observable-stream.js";
import { turnItems, turnText } from "./turn-streams.js";

/** A running turn, given out by `thread.run(…)` for as long as its Scope is open. */
export interface EffectTurn<T extends ProtocolTypesShape = DefaultProtocolTypes, O = undefined> {
  /** Core's turn (its Observables, `id`, `steer`, …). */
  readonly turn: CodexTurn<T, O>;
  /**
   * This turn's notifications. The first run sees them from the turn's start (each run of deltas
   * of one item that came before it joined into one event); later runs see them from when they run.
   * With `replayEvents: false` every run, the first too, sees them from when it runs.
   */
  readonly events: Stream.Stream<ServerNotificationOf<T>, CodexError>;
  /** Each item as it is folded: started → deltas → completed. A run first gets each item's latest update so far. */
  readonly items: Stream.Stream<TurnItemUpdate<ThreadItemOf<T>>, CodexError>;
  /**
   * The agent's text as it streams, the deltas that arrive together (one read of the transport)
   * joined into one piece; a run first gets the text that streamed before it as one piece, so every
   * run sees the whole text. `Stream.take` / `runHead` take what they need; the turn runs on.
   * Core's `turn.text$` has one value per delta.
   */
  readonly text: Stream.Stream<string, CodexError>;
  /**
   * How the turn ended (every terminal status: check `status`). Interrupting the fiber that waits
   * here interrupts the turn on the server, and the interruption finishes once the server
   * reported the turn ended (`interrupted`).
   */
  readonly completed: Effect.Effect<CompletedTurn<T, O>, CodexError>;
  /** Sends `turn/interrupt`; the turn then completes with status `interrupted`. */
  readonly interrupt: Effect.Effect<void, CodexError>;
}

/**
 * Interrupts the turn unless it already ended, then waits for it to end (an orphan turn is never
 * left running), for at most `graceMs`: a server that never ends it must not hold the Scope open.
 */
function stopTurn(turn: { interrupt(): Promise<void>; readonly completed: Promise<unknown> }, ended: () => boolean, graceMs: number): Effect.Effect<void> {
  // Core's timer, not setTimeout: a grace past 2^31−1 ms (Duration.infinity, "30 days") would fire after 1 ms.
  return Effect.suspend(() =>
    ended()
      ? Effect.void
      : Effect.asVoid(
          Effect.promise(() =>
            settlesWithin(
              turn.interrupt().then(() => turn.completed),
              graceMs,
            ),
          ),
        ),
  );
}

/**
 * The turn `start()` returns, held by the current Scope: its Streams see it from its start, and
 * closing the scope before the turn ended interrupts it (and waits for the server to end it).
 */
export function scopedTurn<T extends ProtocolTypesShape, O>(
  start: () => CodexTurn<T, O>,
  { stopGraceMs }: { readonly stopGraceMs: number },
): Effect.Effect<EffectTurn<T, O>, CodexError, Scope.Scope> {
  return Effect.acquireRelease(
    Effect.suspend(() => {
      let turn: CodexTurn<T, O>;
      try {
        turn = start();
      } catch (thrown) {
        // Core refuses some turns at once (ThreadBusyError with whenBusy: "fail", a bad option): tagged errors.
        return Effect.failCause(causeOf(thrown));
      }
      // Core ends a failed turn's streams without an error (the cause is in `completed`): here they fail with it.
      const outcome = () => turn.completed;
      let ended = false;
      turn.completed.then(
        () => (ended = true),
        () => (ended = true),
      );
      const stop = stopTurn(turn, () => ended, stopGraceMs);
      const effectTurn: EffectTurn<T, O> = {
        turn,
        // Core keeps the events from the turn's start (`keepEvents`) for the first run to take.
        events: streamFrom(endingAs(turn.events$, outcome), () => turn.takeEvents()),
        items: turnItems(turn),
        text: turnText(turn),
        completed: fromPromise(() => turn.completed).pipe(Effect.onInterrupt(() => stop)),
        interrupt: fromPromise(() => turn.interrupt()),
      };
      return Effect.succeed({ effectTurn, stop });
    }),
    ({ stop }) => stop,
  ).pipe(Effect.map(({ effectTurn }) => effectTurn));
}
