import type { PaginateOptions, Requester } from "./page-walk.js";

export type { ListOptions } from "./page-walk.js";

/**
 * The entries of a cursor-paginated method (`{ data, nextCursor }` replies), fetched a page at a
 * time as the loop asks for them: a `break` fetches nothing more. `params.limit` is the page size.
 * A reply without a `data` array, or a cursor the server already returned (which would loop for
 * ever), is a ProtocolError. The paging (page-walk) loads when the loop first asks for an entry.
 */
export function paginate<Entry>(method: string, params: object, request: Requester, options: PaginateOptions = {}): AsyncIterable<Entry> {
  return {
    async *[Symbol.asyncIterator]() {
      yield* (await import("./page-walk.js")).walkPages<Entry>(method, params, request, options);
    },
  };
}

/** The entry type of a paginated method `M`'s `data` (e.g. `Thread` for `thread/list`). */
export type PageEntryIn<Map, M> = M extends keyof Map ? (Map[M] extends { result: { data: ReadonlyArray<infer E> } } ? E : never) : never;
