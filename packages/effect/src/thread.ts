// A core CodexThread with Effect members: turns as scoped resources, requests as Effects.
import type { CodexThread, CompletedTurn, DefaultProtocolTypes, OutputOf, OutputSchema, ProtocolTypesShape, TurnOptions, UserInputOf } from "@codex-rpc/core";
import { Duration, Effect, type Scope } from "effect";
import type { CodexError } from "./errors.js";
import { type EffectTurn, scopedTurn } from "./turn.js";

/** What closing a running turn's Scope waits for codex to end it, by default. */
const DEFAULT_STOP_GRACE: Duration.Input = "10 seconds";

export type TurnInput<T extends ProtocolTypesShape> = string | readonly UserInputOf<T>[];
/** `thread.run` options: core's (`signal` is the fiber's interruption here), and the binding's own. */
export type EffectTurnOptions<T extends ProtocolTypesShape, S extends OutputSchema | undefined> = Omit<TurnOptions<T, S>, "signal" | "keepEvents"> & {
  /**
   * `false`: keep none of the turn's events for a first `events` run made after the turn started
   * (such a run then sees the events from when it runs, as every later run does). Core's
   * `keepEvents`, which this sets: see the README's "Cost". Default `true`.
   */
  readonly replayEvents?: boolean;
  /**
   * How long closing the turn's Scope (or interrupting its `completed`) waits for codex to end the
   * interrupted turn, as a `Duration` input; then the Scope closes anyway and the turn may still run on
   * the server. Default 10 seconds: a server that never ends the turn must not hold a program's
   * shutdown (finalizers cannot be interrupted).
   */
  readonly stopGrace?: Duration.Input;
};

export interface EffectThread<T extends ProtocolTypesShape = DefaultProtocolTypes> {
  /** Core's thread (fork, review, listings, …). */
  readonly thread: CodexThread<T>;
  readonly id: string;
  /** Starts a turn held by the current Scope (see EffectTurn). */
  run<S extends OutputSchema | undefined = undefined>(
    input: TurnInput<T>,
    options?: EffectTurnOptions<T, S>,
  ): Effect.Effect<EffectTurn<T, OutputOf<S>>, CodexError, Scope.Scope>;
  /** Runs a turn to its end; interrupting the fiber interrupts the turn on the server. */
  runToEnd<S extends OutputSchema | undefined = undefined>(
    input: TurnInput<T>,
    options?: EffectTurnOptions<T, S>,
  ): Effect.Effect<CompletedTurn<T, OutputOf<S>>, CodexError>;
}

/** The options core's `run` takes: the binding's own left out, `replayEvents` as core's `keepEvents`. */
function coreOptions<O extends { readonly replayEvents?: boolean; readonly stopGrace?: Duration.Input }>(
  options: O | undefined,
): Omit<O, "replayEvents" | "stopGrace"> & { readonly keepEvents: boolean } {
  const { replayEvents = true, stopGrace: _, ...rest } = options ?? ({} as O);
  return { ...rest, keepEvents: replayEvents };
}

export function effectThread<T extends ProtocolTypesShape>(thread: CodexThread<T>): EffectThread<T> {
  const run = <S extends OutputSchema | undefined = undefined>(input: TurnInput<T>, options?: EffectTurnOptions<T, S>) =>
    scopedTurn(() => thread.run<S>(input, coreOptions(options)), {
      stopGraceMs: Duration.toMillis(Duration.fromInputUnsafe(options?.stopGrace ?? DEFAULT_STOP_GRACE)),
    });
  return {
    thread,
    id: thread.id,
    run,
    // No `events` Stream is given out: keeping events for its first run would be work and memory for nobody.
    runToEnd: (input, options) => Effect.scoped(Effect.flatMap(run(input, { ...options, replayEvents: false }), (turn) => turn.completed)),
  };
}
