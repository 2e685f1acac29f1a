import type { ServerNotification, ThreadItem } from "@codex-rpc/protocol";

/** One step in an item's life: `item.text` (agent messages) and `aggregatedOutput` (commands) grow by deltas. */
export interface TurnItemUpdate {
  readonly phase: "started" | "delta" | "completed";
  readonly item: ThreadItem;
}

/**
 * Folds a turn's notifications into its items: started → deltas → completed. Keeps one entry per
 * item (the latest shape), never the raw events.
 */
export class TurnItemsFold {
  private readonly items = new Map<string, ThreadItem>();

  /** Applies one notification; returns the item update it makes, if any. */
  apply(notification: ServerNotification): TurnItemUpdate | undefined {
    switch (notification.method) {
      case "item/started":
        this.items.set(notification.params.item.id, notification.params.item);
        return { phase: "started", item: notification.params.item };
      case "item/completed":
        this.items.set(notification.params.item.id, notification.params.item);
        return { phase: "completed", item: notification.params.item };
      case "item/agentMessage/delta": {
        const item = this.items.get(notification.params.itemId);
        if (item?.type !== "agentMessage") return undefined;
        const grown: ThreadItem = { ...item, text: item.text + notification.params.delta };
        this.items.set(item.id, grown);
        return { phase: "delta", item: grown };
      }
      case "item/commandExecution/outputDelta": {
        const item = this.items.get(notification.params.itemId);
        if (item?.type !== "commandExecution") return undefined;
        const grown: ThreadItem = { ...item, aggregatedOutput: (item.aggregatedOutput ?? "") + notification.params.delta };
        this.items.set(item.id, grown);
        return { phase: "delta", item: grown };
      }
      default:
        return undefined;
    }
  }

  /** Records an item's final shape from elsewhere (a turn read back from the server). */
  record(item: ThreadItem): void {
    this.items.set(item.id, item);
  }

  /** Every item, in the order it started. */
  list(): ThreadItem[] {
    return [...this.items.values()];
  }

  /** The text of the last agent message (what the model said last), or "" if it said nothing. */
  finalText(): string {
    let text = "";
    for (const item of this.items.values()) if (item.type === "agentMessage") text = item.text;
    return text;
  }
}
