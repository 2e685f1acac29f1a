import { canonicalThreadId } from "./thread-id.js";

/**
 * The params fields other than `threadId` that name threads (codex 0.169.0's protocol, stable and
 * experimental: every params field ending in `ThreadId` / `ThreadIds` / `threads`): `project/import`
 * `threads` (puts them in the project), `thread/section/move` `beforeThreadId`, and `thread/list`'s
 * filters `ancestorThreadId`, `attachedToThreadId`, `parentThreadId`, `excludedThreadIds`.
 */
const THREAD_FIELDS = ["threads", "beforeThreadId", "ancestorThreadId", "attachedToThreadId", "parentThreadId", "excludedThreadIds"] as const;

/**
 * Requests that may name, in those fields, a thread nobody has open (as `thread/read` may by
 * `threadId`): `thread/list` only filters by them. Every other request must name the caller's own.
 */
export const UNOWNED_NAMED_THREAD_METHODS: ReadonlySet<string> = new Set(["thread/list"]);

/** Every thread a request's params name besides `threadId`, in canonical spelling (see canonicalThreadId). */
export function threadsNamed(params: unknown): string[] {
  if (typeof params !== "object" || params === null || Array.isArray(params)) return [];
  const record = params as Record<string, unknown>;
  const named: string[] = [];
  for (const field of THREAD_FIELDS) {
    const value = record[field];
    for (const entry of Array.isArray(value) ? value : [value]) if (typeof entry === "string") named.push(canonicalThreadId(entry));
  }
  return named;
}
