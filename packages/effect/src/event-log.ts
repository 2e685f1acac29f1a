// A turn's events from its start, for the first run of its `events` Stream only. Core keeps no
// events, so what came before that run is recorded here, with each run of deltas of one item
// (`item/agentMessage/delta`, `…/outputDelta`, …) kept as one event of the joined text: the log
// grows with the turn's items and text, not with its deltas. The first run takes the log over and
// follows core's `events$` from there; the log is dropped, and later runs are live only.
import { Effect, Queue, Stream } from "effect";
import { type CodexError, causeOf } from "./errors.js";
import { endingAs, type Subscribable, streamFrom, subscribeInto } from "./observable-stream.js";

interface Notification {
  readonly method: string;
  readonly params?: unknown;
}

/** Deltas are joined this many at a time: a run of small ones then costs its text, hardly a string header apiece. */
const JOIN_EVERY = 64;
/** …unless they are large (this average length or more): their headers are a small share, and joining would copy them all. */
const JOIN_BELOW_AVERAGE_LENGTH = 256;

/**
 * Fields a turn's deltas all share (core's turn gets only its own thread's and turn's
 * notifications): not compared, so a delta costs one comparison of its item id, not three of ids.
 */
const SAME_FOR_THE_TURN = new Set(["threadId", "turnId", "delta"]);

/** Consecutive deltas of one item, kept as runs of joined text. */
class DeltaRun {
  readonly #joined: string[] = [];
  #loose: string[] = [];
  #looseLength = 0;
  /** The run's item (most deltas name one), compared first. */
  readonly #itemId: unknown;
  /** The run's other fields but those the turn's deltas share (`contentIndex`, `summaryIndex`…). */
  readonly #keys: readonly string[];

  constructor(
    readonly method: string,
    readonly params: Record<string, unknown>,
  ) {
    this.#itemId = params.itemId;
    this.#keys = Object.keys(params).filter((key) => key !== "itemId" && !SAME_FOR_THE_TURN.has(key));
  }

  /**
   * Appends `params.delta` if `params` continues this run (the same method, item and fields) and
   * says whether it did. The hot path of every delta the turn streams before a first `events` run.
   */
  take(method: string, params: Record<string, unknown> | undefined): boolean {
    if (method !== this.method || params === undefined || params.itemId !== this.#itemId) return false;
    const delta = params.delta;
    if (typeof delta !== "string") return false;
    const keys = this.#keys;
    for (let i = 0; i < keys.length; i++) if (params[keys[i] as string] !== this.params[keys[i] as string]) return false;
    this.append(delta);
    return true;
  }

  append(delta: string): void {
    this.#loose.push(delta);
    this.#looseLength += delta.length;
    if (this.#loose.length < JOIN_EVERY) return;
    if (this.#looseLength < JOIN_EVERY * JOIN_BELOW_AVERAGE_LENGTH) this.#joined.push(this.#loose.join(""));
    else for (const piece of this.#loose) this.#joined.push(piece);
    this.#loose = [];
    this.#looseLength = 0;
  }

  /** One notification of the whole run: the first delta's fields, the joined text as `delta`. */
  event(): Notification {
    return { method: this.method, params: { ...this.params, delta: this.#joined.join("") + this.#loose.join("") } };
  }
}

function deltaParams(notification: Notification): Record<string, unknown> | undefined {
  const params = notification.params;
  return typeof params === "object" && params !== null && typeof (params as { delta?: unknown }).delta === "string"
    ? (params as Record<string, unknown>)
    : undefined;
}

export class EventLog<A extends Notification> {
  #entries: (A | DeltaRun)[] | undefined = [];
  /** The last entry when it is a run of deltas: the next delta most likely continues it. */
  #run: DeltaRun | undefined;
  #end: { readonly error: unknown } | "complete" | undefined;
  /** The source as runs follow it: its end waits for the turn's outcome. */
  readonly #live: Subscribable<A>;
  readonly #outcome: () => PromiseLike<unknown>;
  #subscription: { unsubscribe(): void } | undefined;

  /**
   * Subscribes at once: core's streams are hot, so this must be in the tick the turn started. The
   * log records from `source` itself (one call per event, the hot path); a run that finds it ended
   * ends with `outcome()` (core completes a failed turn's streams; the run fails with the cause).
   */
  constructor(source: Subscribable<A>, outcome: () => PromiseLike<unknown>) {
    this.#live = endingAs(source, outcome);
    this.#outcome = outcome;
    this.#subscription = source.subscribe({
      next: (value) => {
        if (this.#run?.take(value.method, value.params as Record<string, unknown> | undefined) !== true) this.#record(value);
      },
      error: (error) => this.#stop({ error }),
      complete: () => this.#stop("complete"),
    });
  }

  /** How many entries the log holds now (a run of deltas is one); 0 once the first run took it over. */
  get size(): number {
    return this.#entries?.length ?? 0;
  }

  #record(value: A): void {
    const entries = this.#entries;
    if (entries === undefined) return;
    const params = deltaParams(value);
    if (params === undefined) {
      this.#run = undefined;
      entries.push(value);
      return;
    }
    const { delta, ...rest } = params;
    const run = new DeltaRun(value.method, rest);
    run.append(delta as string);
    entries.push(run);
    this.#run = run;
  }

  #stop(end: { readonly error: unknown } | "complete"): void {
    this.#end = end;
    this.#subscription = undefined;
  }

  /** Drops the log (the turn's scope closed): a first run after this sees only what it follows live. */
  close(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = undefined;
    this.#entries = undefined;
    this.#run = undefined;
    this.#end ??= "complete";
  }

  /** The first run replays the log and follows live; it and every later run have no log to keep. */
  stream(): Stream.Stream<A, CodexError> {
    return Stream.suspend(() => (this.#entries === undefined ? streamFrom(this.#live) : this.#takeOver()));
  }

  #takeOver(): Stream.Stream<A, CodexError> {
    return Stream.callback<A, CodexError>((queue) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          const entries = this.#entries ?? [];
          // Taken in one synchronous step with the live subscription below: nothing falls between.
          this.#entries = undefined;
          this.#run = undefined;
          this.#subscription?.unsubscribe();
          this.#subscription = undefined;
          for (const entry of entries) Queue.offerUnsafe(queue, entry instanceof DeltaRun ? (entry.event() as A) : entry);
          const end = this.#end;
          if (end === undefined) return subscribeInto(this.#live, queue);
          if (end === "complete")
            this.#outcome().then(
              () => Queue.endUnsafe(queue),
              (error: unknown) => Queue.failCauseUnsafe(queue, causeOf(error)),
            );
          else Queue.failCauseUnsafe(queue, causeOf(end.error));
          return undefined;
        }),
        (subscription) => Effect.sync(() => subscription?.unsubscribe()),
      ),
    );
  }
}

/** What stands for the log with `replayEvents: false`: every run sees the events from when it runs. */
export function liveOnly<A extends Notification>(source: Subscribable<A>, outcome: () => PromiseLike<unknown>): Pick<EventLog<A>, "stream" | "close"> {
  const stream = streamFrom(endingAs(source, outcome));
  return { stream: () => stream, close: () => undefined };
}
