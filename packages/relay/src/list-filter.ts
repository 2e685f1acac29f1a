/** Who owns a thread, seen from one connection. */
export type Ownership = "mine" | "other" | "none";

/** The list requests whose results the relay filters per connection. */
export const LIST_METHODS: ReadonlySet<string> = new Set(["thread/list", "thread/loaded/list", "thread/search", "thread/attachmentOwner/list"]);

/**
 * A list result as one connection may see it:
 * - `thread/loaded/list` (the thread ids loaded in the app-server): only the connection's own;
 * - `thread/list` (threads stored on disk): without those another connection has open — a stored
 *   thread nobody has open stays listed, as it may be resumed.
 * - `thread/search` (`{ thread, snippet }` entries) and `thread/attachmentOwner/list`
 *   (`{ threadId, archived }` entries): as `thread/list`.
 * (`project/read`, `project/list` and `threadSection/list` name no threads; `thread/searchOccurrences`
 * and the other per-thread reads take a `threadId` the connection must own.)
 * Cursors pass through unchanged, so a page can hold fewer entries than `limit` asked for.
 */
export function filterListResult(method: string, result: unknown, ownership: (threadId: string) => Ownership): unknown {
  if (typeof result !== "object" || result === null) return result;
  const data = (result as { data?: unknown }).data;
  if (!Array.isArray(data)) return result;
  if (method === "thread/loaded/list") {
    return { ...result, data: data.filter((id) => typeof id === "string" && ownership(id) === "mine") };
  }
  if (method === "thread/list") {
    return { ...result, data: data.filter((thread) => ownership(idOf(thread) ?? "") !== "other") };
  }
  if (method === "thread/search") {
    return { ...result, data: data.filter((hit) => ownership(idOf((hit as { thread?: unknown } | null)?.thread) ?? "") !== "other") };
  }
  if (method === "thread/attachmentOwner/list") {
    return { ...result, data: data.filter((entry) => ownership(threadIdOf(entry) ?? "") !== "other") };
  }
  return result;
}

function idOf(thread: unknown): string | undefined {
  const id = typeof thread === "object" && thread !== null ? (thread as { id?: unknown }).id : undefined;
  return typeof id === "string" ? id : undefined;
}

function threadIdOf(entry: unknown): string | undefined {
  const id = typeof entry === "object" && entry !== null ? (entry as { threadId?: unknown }).threadId : undefined;
  return typeof id === "string" ? id : undefined;
}
