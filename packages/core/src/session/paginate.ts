import type { PaginateOptions, Requester } from "./page-walk.js";

export type { ListOptions } from "./page-walk.js";

/** The entries of a cursor-paginated method, as `walkPages` (page-walk.ts) fetches them; it loads when the loop first asks for an entry. */
export function paginate<Entry>(method: string, params: object, request: Requester, options: PaginateOptions = {}): AsyncIterable<Entry> {
  return {
    async *[Symbol.asyncIterator]() {
      yield* (await import("./page-walk.js")).walkPages<Entry>(method, params, request, options);
    },
  };
}

/** The entry type of a paginated method `M`'s `data` (e.g. `Thread` for `thread/list`). */
export type PageEntryIn<Map, M> = M extends keyof Map ? (Map[M] extends { result: { data: ReadonlyArray<infer E> } } ? E : never) : never;
