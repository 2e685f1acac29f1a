import type { ServerNotification, ThreadItem } from "@codex-rpc/protocol";

/** One step in an item's life: `item.text` (agent messages) and `aggregatedOutput` (commands) grow by deltas. */
export interface TurnItemUpdate {
  readonly phase: "started" | "delta" | "completed";
  readonly item: ThreadItem;
}

interface ItemState {
  item: ThreadItem;
  /**
   * Deltas since `item` was last materialised, joined only when someone looks. An array, not
   * `text += delta`: a rope of a million small strings is a million objects for the GC to trace.
   */
  parts: string[];
}

/**
 * Folds a turn's notifications into its items: started → deltas → completed. Keeps one entry per
 * item, never the raw events; a delta is only appended to a string, and the grown item object is
 * built when someone asks for it (an items$ subscriber, or the end of the turn).
 */
export class TurnItemsFold {
  private readonly items = new Map<string, ItemState>();

  /**
   * Applies one notification. Returns the id of the item it changed and the phase, or undefined;
   * `itemUpdate()` builds the update object when there is an items$ subscriber to give it to.
   */
  apply(notification: ServerNotification): TurnItemUpdate["phase"] | undefined {
    switch (notification.method) {
      case "item/started":
      case "item/completed":
        this.items.set(notification.params.item.id, { item: notification.params.item, parts: [] });
        this.lastId = notification.params.item.id;
        return notification.method === "item/started" ? "started" : "completed";
      case "item/agentMessage/delta":
      case "item/commandExecution/outputDelta": {
        const state = this.items.get(notification.params.itemId);
        if (!state) return undefined;
        state.parts.push(notification.params.delta);
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
    this.items.set(item.id, { item, parts: [] });
  }

  /** Every item, in the order it started. */
  list(): ThreadItem[] {
    return [...this.items.values()].map((state) => this.materialise(state));
  }

  /** The text of the last agent message (what the model said last), or "" if it said nothing. */
  finalText(): string {
    let text = "";
    for (const state of this.items.values()) {
      const item = this.materialise(state);
      if (item.type === "agentMessage") text = item.text;
    }
    return text;
  }

  private lastId: string | undefined;

  private materialise(state: ItemState): ThreadItem {
    if (state.parts.length === 0) return state.item;
    const item = state.item;
    const grown = state.parts.join("");
    if (item.type === "agentMessage") state.item = { ...item, text: item.text + grown };
    else if (item.type === "commandExecution") state.item = { ...item, aggregatedOutput: (item.aggregatedOutput ?? "") + grown };
    state.parts = [];
    return state.item;
  }
}
