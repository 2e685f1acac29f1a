import type { JsonRpcMessage } from "@codex-rpc/core/transport";

/**
 * The turn running on each thread, as the app-server's notifications tell it: `turn/started`
 * sets it, `turn/completed` clears it. The relay interrupts these when their connection leaves.
 */
export class RunningTurns {
  readonly #byThread = new Map<string, string>();

  /** Looks at a notification from the app-server. */
  observe(message: JsonRpcMessage): void {
    if (!("method" in message) || "id" in message) return;
    if (message.method !== "turn/started" && message.method !== "turn/completed") return;
    const params = message.params as { threadId?: unknown; turn?: { id?: unknown } | null } | undefined;
    const threadId = params?.threadId;
    const turnId = params?.turn?.id;
    if (typeof threadId !== "string" || typeof turnId !== "string") return;
    if (message.method === "turn/started") this.#byThread.set(threadId, turnId);
    else if (this.#byThread.get(threadId) === turnId) this.#byThread.delete(threadId);
  }

  /** The turn running on `threadId`, if any. */
  of(threadId: string): string | undefined {
    return this.#byThread.get(threadId);
  }

  /** The thread is no longer followed (unsubscribed, or its owner left). */
  forget(threadId: string): void {
    this.#byThread.delete(threadId);
  }
}
