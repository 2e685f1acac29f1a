import { turnIdOf } from "./notification-routing.js";
import type { TurnStarter } from "./turn-started-by.js";

/**
 * Begins the compaction of a thread's context. codex 0.169.0 answers `thread/compact/start` with
 * `{}` and then runs the compaction as a turn of its own on the thread (`turn/started`, a
 * `contextCompaction` item, `turn/completed`; one model request for the summary), even on a thread
 * with no turns yet. The reply names no turn, so the turn is the first one the thread starts after
 * the request: listening begins before the request is sent.
 */
export function startCompaction(threadId: string): TurnStarter {
  return (host) =>
    new Promise((resolve, reject) => {
      let stop = (): void => undefined;
      stop = host.listenToThread(threadId, {
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
      host.request("thread/compact/start", { threadId }).catch((error: unknown) => {
        stop();
        reject(error);
      });
    });
}
