import type { ServerNotification, ThreadItem } from "@codex-rpc/protocol";

/** One step in an item's life: `item.text` (agent messages) and `aggregatedOutput` (commands) grow by deltas. */
export interface TurnItemUpdate<Item = ThreadItem> {
  readonly phase: "started" | "delta" | "completed";
  readonly item: Item;
}

interface ItemState {
  item: ThreadItem;
  /**
   * Text streamed since `item` was last materialised, joined only when someone looks. Small deltas
   * are joined in runs as they arrive (see `keepDelta`), so a turn of a million deltas keeps a few
   * thousand strings, not a million: the heap holds the text, not a string header and an array
   * slot per delta, and the GC has that many fewer objects to copy and trace.
   */
  parts: string[];
  /** How many of the last `parts` are deltas not yet joined, and their length. */
  loose: number;
  looseLength: number;
}

/** Deltas are joined once this many are loose… */
const JOIN_EVERY = 64;
/**
 * …if they are small: below this average length a string's own header (16–20 bytes) and its
 * array slot are a real share of what it keeps. Larger deltas stay as they are, since joining them
 * would copy far more text than it saves in overhead.
 */
const JOIN_BELOW_AVERAGE_LENGTH = 256;

function keepDelta(state: ItemState, delta: string): void {
  state.parts.push(delta);
  state.loose++;
  state.looseLength += delta.length;
  if (state.loose < JOIN_EVERY) return;
  if (state.looseLength < JOIN_EVERY * JOIN_BELOW_AVERAGE_LENGTH) {
    const parts = state.parts;
    const start = parts.length - JOIN_EVERY;
    parts[start] = parts.slice(start).join("");
    parts.length = start + 1;
  }
  state.loose = 0;
  state.looseLength = 0;
}

function freshState(item: ThreadItem): ItemState {
  return { item, parts: [], loose: 0, looseLength: 0 };
}

/**
 * Folds a turn's notifications into its items: started → deltas → completed. Keeps one entry per
 * item, never the raw events; a delta is only appended to a string, and the grown item object is
 * built when someone asks for it (an items$ subscriber, or the end of the turn).
 */
export class TurnItemsFold {
  private readonly items = new Map<string, ItemState>();
  /** Ids of items seen completed (or recorded from the server's final turn). */
  private readonly completed = new Set<string>();

  /**
   * Applies one notification. Returns the id of the item it changed and the phase, or undefined;
   * `itemUpdate()` builds the update object when there is an items$ subscriber to give it to.
   */
  apply(notification: ServerNotification): TurnItemUpdate["phase"] | undefined {
    switch (notification.method) {
      case "item/started":
      case "item/completed": {
        const id = notification.params.item.id;
        this.setItem(notification.params.item);
        if (notification.method === "item/completed") this.completed.add(id);
        this.lastId = id;
        return notification.method === "item/started" ? "started" : "completed";
      }
      case "item/agentMessage/delta":
      case "item/commandExecution/outputDelta": {
        const state = this.stateOf(notification.params.itemId);
        if (!state) return undefined;
        keepDelta(state, notification.params.delta);
        this.lastId = notification.params.itemId;
        return "delta";
      }
      default:
        return undefined;
    }
  }

  /** The update for the item the last `apply` changed. */
  itemUpdate(phase: TurnItemUpdate["phase"]): TurnItemUpdate {
    return { phase, item: this.materialise(this.items.get(this.lastId as string) as ItemState) };
  }

  /** Records an item's final shape from elsewhere (a turn read back from the server). */
  record(item: ThreadItem): void {
    this.setItem(item);
    this.completed.add(item.id);
  }

  /** Items that started but never completed: what they hold is only what streamed. */
  incompleteIds(): string[] {
    return [...this.items.keys()].filter((id) => !this.completed.has(id));
  }

  /** Every item, in the order it started. */
  list(): ThreadItem[] {
    return [...this.items.values()].map((state) => this.materialise(state));
  }

  /** The last agent message (what the model said last), if it said anything. */
  finalMessage(): { readonly id: string; readonly text: string } | undefined {
    let last: { id: string; text: string } | undefined;
    for (const state of this.items.values()) {
      const item = this.materialise(state);
      if (item.type === "agentMessage") last = { id: item.id, text: item.text };
    }
    return last;
  }

  private lastId: string | undefined;
  /** The item the last delta went to: deltas come in runs, and comparing the id is cheaper than hashing it anew. */
  private lastDeltaId: string | undefined;
  private lastDeltaState: ItemState | undefined;

  private setItem(item: ThreadItem): void {
    this.items.set(item.id, freshState(item));
    this.lastDeltaId = undefined;
    this.lastDeltaState = undefined;
  }

  private stateOf(id: string): ItemState | undefined {
    if (id !== this.lastDeltaId) {
      this.lastDeltaId = id;
      this.lastDeltaState = this.items.get(id);
    }
    return this.lastDeltaState;
  }

  private materialise(state: ItemState): ThreadItem {
    if (state.parts.length === 0) return state.item;
    const item = state.item;
    const grown = state.parts.join("");
    // A server that sent the item without its text must not turn it into "undefined…".
    if (item.type === "agentMessage") state.item = { ...item, text: (typeof item.text === "string" ? item.text : "") + grown };
    else if (item.type === "commandExecution") state.item = { ...item, aggregatedOutput: (item.aggregatedOutput ?? "") + grown };
    state.parts = [];
    state.loose = 0;
    state.looseLength = 0;
    return state.item;
  }
}
