/** The thread a message's params name: `threadId`, or `thread.id` (`thread/started`), or undefined. */
export function threadOf(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const record = params as { threadId?: unknown; thread?: { id?: unknown } | null };
  if (typeof record.threadId === "string") return record.threadId;
  const id = typeof record.thread === "object" && record.thread !== null ? record.thread.id : undefined;
  return typeof id === "string" ? id : undefined;
}

/**
 * Requests whose successful result makes a thread the caller's (see threadOfResult): the one in
 * `result.thread.id`, or a review's `reviewThreadId`.
 */
export const THREAD_OPENING_METHODS: ReadonlySet<string> = new Set(["thread/start", "thread/resume", "thread/fork", "review/start"]);

/**
 * The thread a request's result names: `threadId` or `thread.id`, or for `review/start` its
 * `reviewThreadId` — a detached review (`delivery: "detached"`, codex 0.160.0) runs on a new thread,
 * which becomes the caller's as a started thread does; an inline review names the caller's own.
 */
export function threadOfResult(method: string, result: unknown): string | undefined {
  const named = threadOf(result);
  if (named !== undefined || method !== "review/start" || typeof result !== "object" || result === null) return named;
  const review = (result as { reviewThreadId?: unknown }).reviewThreadId;
  return typeof review === "string" ? review : undefined;
}

/**
 * Requests that may name a thread no connection owns (a thread stored on disk, or one whose owner
 * left): resuming or forking it is how a connection gets it; reading it is harmless. Every other
 * request naming a thread must name one of the caller's.
 */
export const UNOWNED_THREAD_METHODS: ReadonlySet<string> = new Set(["thread/resume", "thread/fork", "thread/read"]);
