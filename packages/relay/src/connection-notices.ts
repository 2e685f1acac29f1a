import type { JsonRpcMessage } from "@codex-rpc/core/transport";

/** Notifications that report a state: only the latest one is worth replaying. */
const LATEST_ONLY: ReadonlySet<string> = new Set(["remoteControl/status/changed", "account/rateLimits/updated", "account/updated", "app/list/updated"]);
/** The most notifications kept for replay (those that report a state count once each). */
const MAX_KEPT = 100;

/**
 * The app-server's connection-level notifications (naming no thread and nothing a connection owns:
 * `configWarning`, `deprecationNotice`, `remoteControl/status/changed`, …) received since the
 * relay's own `initialize`. codex sends several right after each `initialize`, once, to the relay's
 * connection, before any page is there; each page gets them replayed after its own `initialize`, as
 * a client connected to codex directly would have. Bounded: a state's latest only, and the first
 * `MAX_KEPT` of the rest (later ones still go to every page connected then).
 */
export class ConnectionNotices {
  readonly #kept: JsonRpcMessage[] = [];

  keep(message: JsonRpcMessage & { method: string }): void {
    // One that cannot be serialized (nested too deep for JSON.stringify) reaches no page: kept, it
    // would fail again, with a log line, for every page that connects later.
    if (!serializable(message)) return;
    if (LATEST_ONLY.has(message.method)) {
      const index = this.#kept.findIndex((kept) => "method" in kept && kept.method === message.method);
      if (index !== -1) {
        this.#kept[index] = message;
        return;
      }
    }
    if (this.#kept.length < MAX_KEPT) this.#kept.push(message);
  }

  /** What a page gets after its `initialize`, in the order received. */
  get all(): readonly JsonRpcMessage[] {
    return this.#kept;
  }
}

function serializable(message: JsonRpcMessage): boolean {
  try {
    JSON.stringify(message);
    return true;
  } catch {
    return false;
  }
}
