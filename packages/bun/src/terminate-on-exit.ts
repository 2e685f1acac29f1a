import type { BunSubprocess } from "./bun-stdio-transport.js";

const running = new Set<BunSubprocess>();
let hooked = false;

/**
 * Sends SIGTERM to `child` if this Bun process exits while the child still runs, so a forgotten
 * `close()` or a `process.exit()` does not leave a server behind. A server normally ends by itself
 * when its stdin closes; this covers one that would not.
 */
export function terminateOnExit(child: BunSubprocess): void {
  running.add(child);
  // Forgotten as soon as it has exited: a signal then could reach a process that reused its pid.
  const forget = (): void => void running.delete(child);
  child.exited.then(forget, forget);
  if (hooked) return;
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
