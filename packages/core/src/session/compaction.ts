import { ProtocolError } from "../errors/errors.js";
import { startTimer } from "../util/long-timer.js";
import { turnIdOf } from "./notification-routing.js";
import type { TurnStarter } from "./turn-started-by.js";

/**
 * Begins the compaction of a thread's context. codex 0.169.0 answers `thread/compact/start` with
 * `{}` and then runs the compaction as a turn of its own on the thread (`turn/started`, a
 * `contextCompaction` item, `turn/completed`; one model request for the summary), even on a thread
 * with no turns yet. The reply names no turn, so the turn is the first one the thread starts after
 * the request: listening begins before the request is sent. A server that answers and then starts
 * no turn fails the compaction after `COMPACTION_START_TIMEOUT_MS` rather than holding the thread.
 */
export const COMPACTION_START_TIMEOUT_MS = 30_000;

export function startCompaction(threadId: string, startTimeoutMs = COMPACTION_START_TIMEOUT_MS): TurnStarter {
  return (host) =>
    new Promise((resolve, reject) => {
      let cancelTimer = (): void => undefined;
      let stopListening = (): void => undefined;
      let settled = false;
      const stop = (): void => {
        settled = true;
        cancelTimer();
        stopListening();
      };
      stopListening = host.listenToThread(threadId, {
        notification: (notification) => {
          if (notification.method !== "turn/started") return;
          const turnId = turnIdOf(notification.params);
          if (turnId === undefined) return;
          stop();
          resolve({ turn: { id: turnId } });
        },
        closed: (error) => {
          stop();
          reject(error);
        },
      });
      host.request("thread/compact/start", { threadId }).then(
        () => {
          if (settled) return; // turn/started came first
          cancelTimer = startTimer(startTimeoutMs, () => {
            stop();
            reject(new ProtocolError("thread/compact/start", `the server answered but started no turn within ${startTimeoutMs} ms`));
          });
        },
        (error: unknown) => {
          stop();
          reject(error);
        },
      );
    });
}
