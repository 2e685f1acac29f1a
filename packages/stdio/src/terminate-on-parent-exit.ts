import type { ChildProcess } from "node:child_process";

const running = new Set<ChildProcess>();
let hooked = false;

/**
 * Sends SIGTERM to `child` if this Node process exits while the child still runs (the way execa's
 * `cleanup` does), so a forgotten `close()` or a `process.exit()` does not leave a server behind.
 * A server normally ends by itself when its stdin closes; this covers one that would not.
 * Only the `'exit'` event can be hooked here: there is nothing to do when this process is SIGKILLed.
 */
export function terminateOnParentExit(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  running.add(child);
  child.once("exit", () => running.delete(child));
  if (!hooked) {
    hooked = true;
    process.once("exit", () => {
      for (const orphan of running) {
        try {
          orphan.kill("SIGTERM");
        } catch {
          // Already gone.
        }
      }
    });
  }
}
