// Turns on one thread, one at a time. codex does not serialise `turn/start`: one sent while a turn
// is running is added to that turn as more input (codex 0.169.0 answers it with the running turn's
// id), so two `run()` calls would race into one turn. Each client keeps, per thread, the turns it
// started that have not ended yet; a new turn waits for all of them (or is refused, with
// `whenBusy: "fail"`).
import type { SessionHost } from "./session-host.js";

/** A thread's turns of one client: how many are pending, and when the last of them has ended. */
interface ThreadTurns {
  pending: number;
  /** Settles once every turn enqueued so far has ended (however). */
  tail: Promise<void>;
}

const queues = new WeakMap<SessionHost, Map<string, ThreadTurns>>();
/** Hosts that stand in for the client's own (a review's or a compaction's): their turns wait in its line. */
const standIns = new WeakMap<SessionHost, SessionHost>();

/** Turns begun through `standIn` (see turn-started-by.ts) wait in the same line as `host`'s. */
export function shareTurnQueue(standIn: SessionHost, host: SessionHost): void {
  standIns.set(standIn, ownerOf(host));
}

function ownerOf(host: SessionHost): SessionHost {
  return standIns.get(host) ?? host;
}

function threadTurns(host: SessionHost): Map<string, ThreadTurns> {
  const owner = ownerOf(host);
  let threads = queues.get(owner);
  if (threads === undefined) {
    threads = new Map();
    queues.set(owner, threads);
  }
  return threads;
}

/** How many turns this client started (or queued) on the thread that have not ended. */
export function pendingTurns(host: SessionHost, threadId: string): number {
  return queues.get(ownerOf(host))?.get(threadId)?.pending ?? 0;
}

/** A turn's place in its thread's line. */
export interface TurnTicket {
  /** `undefined`: the thread had no pending turn, start now; else resolves when every turn before this one has ended. */
  readonly ready: Promise<void> | undefined;
  /** This turn ended (however): the next may start. Idempotent; call it as the turn ends, synchronously. */
  readonly release: () => void;
}

/** Puts a turn in its thread's line. */
export function enqueueTurn(host: SessionHost, threadId: string): TurnTicket {
  const threads = threadTurns(host);
  const entry = threads.get(threadId);
  let resolveEnded!: () => void;
  const ended = new Promise<void>((resolve) => {
    resolveEnded = resolve;
  });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    resolveEnded();
    const current = threads.get(threadId);
    if (current === undefined) return;
    current.pending -= 1;
    if (current.pending === 0) threads.delete(threadId);
  };
  if (entry === undefined) {
    threads.set(threadId, { pending: 1, tail: ended });
    return { ready: undefined, release };
  }
  const before = entry.tail;
  entry.pending += 1;
  entry.tail = before.then(() => ended);
  return { ready: before, release };
}
