import { canonicalThreadId } from "./thread-id.js";

/**
 * Params of `thread/resume` and `thread/fork` that open a thread by something other than its id:
 * `path` (a rollout file: codex ignores `threadId` then, so a page could take over or copy another
 * page's thread by its path) and `history` (a whole history given by the page). Refused unless the
 * relay's `allowRolloutPaths` option is set.
 */
const OPENING_BY_OTHER_MEANS = ["path", "history"] as const;
const METHODS_WITH_PATH: ReadonlySet<string> = new Set(["thread/resume", "thread/fork"]);

/** A request's params as the relay forwards them, or why it refuses them. */
export type CheckedParams = { readonly params: unknown; readonly threadId: string | undefined } | { readonly refusal: string };

/**
 * The params of a page's request with their `threadId` in canonical spelling (see
 * canonicalThreadId), or a refusal for `path` / `history` on `thread/resume` / `thread/fork`.
 */
export function checkThreadParams(method: string, params: unknown, allowRolloutPaths: boolean): CheckedParams {
  if (typeof params !== "object" || params === null || Array.isArray(params)) return { params, threadId: undefined };
  const record = params as Record<string, unknown>;
  if (!allowRolloutPaths && METHODS_WITH_PATH.has(method)) {
    const given = OPENING_BY_OTHER_MEANS.find((key) => record[key] !== undefined && record[key] !== null);
    if (given) return { refusal: `${method} with \`${given}\` is not allowed through this relay (name the thread by threadId)` };
  }
  if (typeof record.threadId !== "string") return { params, threadId: undefined };
  const threadId = canonicalThreadId(record.threadId);
  return { params: threadId === record.threadId ? params : { ...record, threadId }, threadId };
}
