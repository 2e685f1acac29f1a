import type { SessionHost } from "./session-host.js";

/**
 * The turn to revert to so that the last `count` turns of a thread go (`thread/revert` drops the
 * turn it names and every later one): the `count`-th newest, read with `thread/turns/list`. Every
 * turn counts, a compaction's or a review's too. Fewer turns than `count` is a RangeError.
 */
export async function turnToRevert(host: SessionHost, threadId: string, count: number): Promise<string> {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`rollback: the number of turns must be an integer ≥ 1, got ${String(count)}`);
  const page = (await host.request("thread/turns/list", { threadId, limit: count, sortDirection: "desc", itemsView: "notLoaded" })) as {
    data?: { id?: unknown }[];
  } | null;
  const turns = Array.isArray(page?.data) ? page.data : [];
  const id = turns[count - 1]?.id;
  if (typeof id !== "string") throw new RangeError(`rollback: the thread has ${turns.length} turn(s), fewer than ${count}`);
  return id;
}
