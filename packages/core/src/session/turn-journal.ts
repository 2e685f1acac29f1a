// A turn's notifications kept from its start for a reader that comes late (`keepEvents` and
// `takeEvents()`), each run of deltas of one item in a row kept as one event of their joined text.
// Deltas whose text the turn's fold keeps anyway (agent text, command output) are kept as where
// they are in their item's text, not as strings of their own: a delta costs the journal one
// comparison and one addition, and no memory.
import type { ServerNotification } from "@codex-rpc/protocol";
import { type ItemState, materialise } from "./turn-items.js";

/** Deltas are joined this many at a time: a run of small ones then costs its text, hardly a string header apiece. */
const JOIN_EVERY = 64;
/** …unless they are large (this average length or more): their headers are a small share, and joining would copy them all. */
const JOIN_BELOW_AVERAGE_LENGTH = 256;

/** Fields every delta of a turn shares or that a run compares anyway: the others must be equal for a delta to continue a run. */
const NOT_COMPARED = new Set(["threadId", "turnId", "itemId", "delta"]);

type Params = Record<string, unknown>;

/**
 * The length of `state`'s text so far if deltas of `method` grow the text `textOf` reads (agent
 * message deltas of an agent message, output deltas of a command), else undefined (a delta that
 * does not fit its item's type, which materialising drops).
 */
function textLength(state: ItemState, method: string): number | undefined {
  const item = state.item;
  let base: string;
  if (method === "item/agentMessage/delta" && item.type === "agentMessage") base = typeof item.text === "string" ? item.text : "";
  else if (method === "item/commandExecution/outputDelta" && item.type === "commandExecution") base = String(item.aggregatedOutput ?? "");
  else return undefined;
  return base.length + state.streamed.length;
}

/** `state`'s text so far, as `textLength` measured it (the state need not be its item's current one). */
function textOf(state: ItemState): string {
  const item = materialise(state);
  return String((item.type === "agentMessage" ? item.text : item.type === "commandExecution" ? item.aggregatedOutput : "") ?? "");
}

/** Consecutive deltas of one item (the same method and fields): one event of their joined text. */
abstract class DeltaRun {
  /** The fields compared (`contentIndex`, `summaryIndex`…): those a newer server may vary within an item. */
  readonly #keys: readonly string[];

  constructor(
    readonly method: string,
    /** The first delta's params without `delta`. */
    readonly params: Params,
  ) {
    this.#keys = Object.keys(params).filter((key) => !NOT_COMPARED.has(key));
  }

  protected sameFields(params: Params): boolean {
    const keys = this.#keys;
    for (let i = 0; i < keys.length; i++) if (params[keys[i] as string] !== this.params[keys[i] as string]) return false;
    return true;
  }

  /** `next` (the entry after this one) goes on with this run's deltas: the two are one run to a reader. */
  continuedBy(next: DeltaRun): boolean {
    return next.method === this.method && next.params.itemId === this.params.itemId && next.#keys.length === this.#keys.length && this.sameFields(next.params);
  }

  /** Appends `delta` if `params` continues this run and says whether it did: the hot path of every delta. */
  abstract take(method: string, params: Params, delta: string, grown: ItemState | undefined): boolean;

  abstract text(): string;

  event(): ServerNotification {
    return { method: this.method, params: { ...this.params, delta: this.text() } } as ServerNotification;
  }
}

/** A run the fold holds the text of: kept as the range of its item's text it grew. */
class FoldedRun extends DeltaRun {
  constructor(
    method: string,
    params: Params,
    readonly item: ItemState,
    readonly start: number,
    public end: number,
  ) {
    super(method, params);
  }

  take(method: string, params: Params, delta: string, grown: ItemState | undefined): boolean {
    if (grown !== this.item || method !== this.method || !this.sameFields(params)) return false;
    this.end += delta.length;
    return true;
  }

  /** The item's state may have been replaced since (`item/completed`): this one still holds what streamed. */
  text(): string {
    return textOf(this.item).slice(this.start, this.end);
  }
}

/**
 * A run of deltas the fold does not keep (reasoning, plans, …), or that came before the journal's
 * code loaded: kept as joined strings.
 */
class TextRun extends DeltaRun {
  /** The item the fold grew by the first delta, if any: a delta it grows and this did not take it out of the copy. */
  readonly #grown: ItemState | undefined;
  readonly #joined: string[] = [];
  #loose: string[] = [];
  #looseLength = 0;

  constructor(method: string, params: Params, delta: string, grown: ItemState | undefined) {
    super(method, params);
    this.#grown = grown;
    this.#append(delta);
  }

  take(method: string, params: Params, delta: string, grown: ItemState | undefined): boolean {
    if (grown !== this.#grown || method !== this.method || params.itemId !== this.params.itemId || !this.sameFields(params)) return false;
    this.#append(delta);
    return true;
  }

  #append(delta: string): void {
    this.#loose.push(delta);
    this.#looseLength += delta.length;
    if (this.#loose.length < JOIN_EVERY) return;
    if (this.#looseLength < JOIN_EVERY * JOIN_BELOW_AVERAGE_LENGTH) this.#joined.push(this.#loose.join(""));
    else for (const piece of this.#loose) this.#joined.push(piece);
    this.#loose = [];
    this.#looseLength = 0;
  }

  text(): string {
    return this.#joined.join("") + this.#loose.join("");
  }
}

export class TurnJournal {
  readonly #entries: (ServerNotification | DeltaRun)[] = [];
  /** The last entry when it is a run: the next delta most likely continues it. */
  #run: DeltaRun | undefined;

  /** Records one notification of the turn, after the fold applied it; `grown` is the item a delta grew in the fold. */
  record(notification: ServerNotification, grown: ItemState | undefined): void {
    const params = notification.params as Params | undefined;
    const delta = params?.delta;
    if (typeof delta !== "string" || params === undefined) {
      this.#run = undefined;
      this.#entries.push(notification);
      return;
    }
    const method = notification.method;
    if (this.#run?.take(method, params, delta, grown) === true) return;
    const { delta: _, ...rest } = params;
    const end = grown === undefined ? undefined : textLength(grown, method);
    const run = end === undefined ? new TextRun(method, rest, delta, grown) : new FoldedRun(method, rest, grown as ItemState, end - delta.length, end);
    this.#entries.push(run);
    this.#run = run;
  }

  /**
   * What was recorded, in order, each run of deltas as one notification. A run can be two entries
   * (its deltas from before the journal loaded, copied, then the rest): they are joined here.
   */
  events(): ServerNotification[] {
    const events: ServerNotification[] = [];
    let run: DeltaRun | undefined;
    for (const entry of this.#entries) {
      if (!(entry instanceof DeltaRun)) {
        events.push(entry);
        run = undefined;
      } else if (run?.continuedBy(entry)) {
        const last = events[events.length - 1] as { method: string; params: Params };
        events[events.length - 1] = {
          method: last.method,
          params: { ...last.params, delta: (last.params.delta as string) + entry.text() },
        } as ServerNotification;
      } else {
        events.push(entry.event());
        run = entry;
      }
    }
    return events;
  }
}
