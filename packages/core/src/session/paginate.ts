import type { PaginateOptions } from "./page-walk.js";
import type { SessionHost } from "./session-host.js";

export type { ListOptions } from "./page-walk.js";

/**
 * The entries of a cursor-paginated method, as `walkPages` (page-walk.ts) fetches them; it loads
 * when the loop first asks for an entry, within the first page request's timeout and signal.
 */
export function paginate<Entry>(
  method: string,
  params: object,
  host: Pick<SessionHost, "request" | "load">,
  options: PaginateOptions = {},
): AsyncIterable<Entry> {
  return {
    async *[Symbol.asyncIterator]() {
      yield* (await host.load(method, import("./page-walk.js"), options)).walkPages<Entry>(method, params, host.request, options);
    },
  };
}

/** The entry type of a paginated method `M`'s `data` (e.g. `Thread` for `thread/list`). */
export type PageEntryIn<Map, M> = M extends keyof Map ? (Map[M] extends { result: { data: ReadonlyArray<infer E> } } ? E : never) : never;
