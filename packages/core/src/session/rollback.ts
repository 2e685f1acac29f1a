import { paginate } from "./paginate.js";
import type { SessionHost } from "./session-host.js";

interface ListedTurn {
  readonly id: string;
  readonly rootTurnId?: string | null;
}

/**
 * The turn to revert to so that the last `count` turns of a thread go (`thread/revert` drops the
 * turn it names and every later one). A turn is what the user started: codex 0.169.0 lists a
 * review as two turns sharing a `rootTurnId` (the reviewer's sub-turn, listed first and stored as
 * `interrupted`, then the review turn itself), and refuses to revert to the second ("does not have
 * a persisted start boundary"), so the turn reverted to is the first listed of its group. A
 * compaction is a turn of its own. Fewer turns than `count` is a RangeError.
 */
export async function turnToRevert(host: SessionHost, threadId: string, count: number): Promise<string> {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`rollback: the number of turns must be an integer ≥ 1, got ${String(count)}`);
  const newestFirst = paginate<ListedTurn>("thread/turns/list", { threadId, limit: count + 1, sortDirection: "desc", itemsView: "notLoaded" }, host);
  let groups = 0;
  let root: string | undefined;
  let earliest: string | undefined;
  for await (const turn of newestFirst) {
    const turnRoot = typeof turn.rootTurnId === "string" ? turn.rootTurnId : turn.id;
    if (turnRoot !== root) {
      if (groups === count) break;
      groups++;
      root = turnRoot;
    }
    earliest = turn.id;
  }
  if (groups < count || earliest === undefined) throw new RangeError(`rollback: the thread has ${groups} turn(s), fewer than ${count}`);
  return earliest;
}
