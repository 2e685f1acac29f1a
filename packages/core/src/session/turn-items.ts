import type { ServerNotification, ThreadItem } from "@codex-rpc/protocol";
import { StreamedText } from "./streamed-text.js";

/** One step in an item's life: `item.text` (agent messages) and `aggregatedOutput` (commands) grow by deltas. */
export interface TurnItemUpdate<Item = ThreadItem> {
  readonly phase: "started" | "delta" | "completed";
  readonly item: Item;
}

/** An item as the fold holds it: what a turn's event journal points its runs of deltas at. */
export interface ItemState {
  item: ThreadItem;
  /** Text streamed since `item` was last materialised, joined only when someone looks. */
  streamed: StreamedText;
  /** A delta grew it since it started. */
  grown: boolean;
}

function freshState(item: ThreadItem): ItemState {
  return { item, streamed: new StreamedText(), grown: false };
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
        state.streamed.append(notification.params.delta);
        state.grown = true;
        this.lastId = notification.params.itemId;
        return "delta";
      }
      default:
        return undefined;
    }
  }

  /** The update for the item the last `apply` changed. */
  itemUpdate(phase: TurnItemUpdate["phase"]): TurnItemUpdate {
    return { phase, item: materialise(this.items.get(this.lastId as string) as ItemState) };
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
    return [...this.items.values()].map((state) => materialise(state));
  }

  /** Each item's latest update (what an items$ subscriber joining now has missed), in start order. */
  latest(): TurnItemUpdate[] {
    return [...this.items].map(([id, state]) => ({
      phase: this.completed.has(id) ? "completed" : state.grown ? "delta" : "started",
      item: materialise(state),
    }));
  }

  /**
   * The text of `item`, a completing agent message that no delta grew (codex sends some whole: a
   * review's closing message), which `text$` never saw; asked before the item is applied.
   */
  unstreamedText(item: ThreadItem): string | undefined {
    if (item.type !== "agentMessage" || typeof item.text !== "string" || item.text === "" || this.items.get(item.id)?.grown) return undefined;
    return item.text;
  }

  /** The last agent message (what the model said last), if it said anything. */
  finalMessage(): { readonly id: string; readonly text: string } | undefined {
    let last: { id: string; text: string } | undefined;
    for (const state of this.items.values()) {
      const item = materialise(state);
      if (item.type === "agentMessage") last = { id: item.id, text: item.text };
    }
    return last;
  }

  /** The item the last `apply` that returned "delta" grew. */
  get lastGrown(): ItemState | undefined {
    return this.lastDeltaState;
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
}

/** The item with the text streamed since it was last materialised added (the state keeps the result). */
export function materialise(state: ItemState): ThreadItem {
  if (state.streamed.isEmpty) return state.item;
  const item = state.item;
  const grown = state.streamed.take();
  // A server that sent the item without its text must not turn it into "undefined…".
  if (item.type === "agentMessage") state.item = { ...item, text: (typeof item.text === "string" ? item.text : "") + grown };
  else if (item.type === "commandExecution") state.item = { ...item, aggregatedOutput: (item.aggregatedOutput ?? "") + grown };
  return state.item;
}
