import { ServerError } from "../errors/errors.js";
import { startTimer } from "../util/long-timer.js";
import { turnIdOf } from "./notification-routing.js";
import type { SessionHost } from "./session-host.js";

/**
 * How long a refused interrupt waits for the turn to show itself before it is sent once more
 * anyway (a server that sends a turn no events must not hold the caller, nor the thread's queue).
 */
const SHOW_WAIT_MS = 10_000;

/**
 * Sends `turn/interrupt` for a turn the server has accepted. codex answers `turn/start` before it
 * has begun the turn, and refuses an interrupt that arrives in between (-32600 "no active turn to
 * interrupt", measured on 0.160.0, 0.165.0 and 0.169.0), after which the turn runs on: its
 * commands too. So when the turn's `turn/started` had not come (`startedSeen`), a refusal is sent
 * again once the turn shows an event (its `turn/started`), unless the server ended it meanwhile.
 * Rejects with the last refusal, or the request's own error.
 */
export async function interruptTurn(host: SessionHost, threadId: string, turnId: string, startedSeen: boolean): Promise<void> {
  const params = { threadId, turnId };
  if (startedSeen) {
    await host.request("turn/interrupt", params);
    return;
  }
  // Listening from before the request: the turn's first event may come while the refusal does.
  let showed!: () => void;
  const showing = new Promise<void>((resolve) => (showed = resolve));
  let ended = false;
  const stop = host.listenToThread(threadId, {
    notification: (notification) => {
      if (turnIdOf(notification.params) !== turnId) return;
      if (notification.method === "turn/completed") ended = true;
      showed();
    },
    closed: () => showed(),
  });
  try {
    await host.request("turn/interrupt", params);
  } catch (error) {
    if (!(error instanceof ServerError)) throw error;
    const cancelWait = startTimer(SHOW_WAIT_MS, showed);
    await showing;
    cancelWait();
    if (ended) return;
    await host.request("turn/interrupt", params);
  } finally {
    stop();
  }
}
