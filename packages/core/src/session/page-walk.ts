// The paging of a cursor-paginated listing at work: loaded on demand (import()) when a loop first
// asks a listing (`client.threads()`, `client.models()`, `thread.turns()`, `thread.items()`) for an entry.
import { ProtocolError } from "../errors/errors.js";
import type { RequestOptions } from "../rpc/json-rpc-connection.js";

/** Options of a paginated listing (`client.threads()`, `thread.turns()`, `thread.items()`). */
export interface ListOptions {
  /** Aborts the page request in flight (the loop throws RequestAbortedError) and fetches no more. */
  readonly signal?: AbortSignal;
}

/** How `paginate` reads pages. */
export interface PaginateOptions extends ListOptions {
  /** An entry whose key was yielded before is skipped (a server that lists one thing twice). */
  readonly distinctBy?: (entry: unknown) => unknown;
}

export type Requester = (method: string, params: unknown, options?: RequestOptions) => Promise<unknown>;

/**
 * The entries of a cursor-paginated method (`{ data, nextCursor }` replies), fetched a page at a
 * time as the loop asks for them: a `break` fetches nothing more. `params.limit` is the page size.
 * A reply without a `data` array, or a cursor the server already returned (which would loop for
 * ever), is a ProtocolError.
 */
export async function* walkPages<Entry>(method: string, params: object, request: Requester, options: PaginateOptions): AsyncGenerator<Entry, void> {
  const requestOptions = options.signal ? { signal: options.signal } : undefined;
  const seen = new Set<string>();
  const yielded = new Set<unknown>();
  let cursor = (params as { cursor?: unknown }).cursor;
  for (;;) {
    const page = (await request(method, { ...params, cursor }, requestOptions)) as { data?: unknown; nextCursor?: unknown } | null;
    if (!Array.isArray(page?.data)) throw new ProtocolError(method, "the result has no `data` array");
    for (const entry of page.data as Entry[]) {
      if (options.distinctBy) {
        const key = options.distinctBy(entry);
        if (yielded.has(key)) continue;
        yielded.add(key);
      }
      yield entry;
    }
    const next = page.nextCursor;
    if (typeof next !== "string") return;
    if (seen.has(next)) throw new ProtocolError(method, "the result's `nextCursor` was returned before (the listing would never end)");
    seen.add(next);
    cursor = next;
  }
}
