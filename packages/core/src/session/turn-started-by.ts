import type { SessionHost } from "./session-host.js";
import { shareTurnQueue } from "./turn-queue.js";

/**
 * How a turn that `turn/start` does not begin is begun (`review/start`, `thread/compact/start`):
 * resolves with a result that holds `turn.id`, as `turn/start`'s does.
 */
export type TurnStarter = (host: SessionHost) => Promise<unknown>;

/**
 * The host a CodexTurn gets when another request begins it: its `turn/start` is `start`, and
 * everything else (routing, interrupt, the watchdog's `thread/read`) is the client's own. The turn
 * then follows, folds and completes exactly like one begun by `turn/start`.
 */
export function hostStartingTurnWith(host: SessionHost, start: TurnStarter): SessionHost {
  // Delegates by prototype, so whatever the host gains later is the client's own too.
  const starting = Object.create(host) as SessionHost;
  starting.request = (method, params, options) => (method === "turn/start" ? start(host) : host.request(method, params, options));
  // A review or a compaction is a turn of the thread like any other: it waits for the turns before it.
  shareTurnQueue(starting, host);
  return starting;
}
