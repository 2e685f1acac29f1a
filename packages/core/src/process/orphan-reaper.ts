/** A child process as the reaper sees it: something it can send SIGTERM to. */
export interface TerminableChild {
  kill(signal: "SIGTERM"): void;
}

/**
 * Keeps track of running child processes and sends each one still running SIGTERM when this
 * program ends, so a forgotten `close()` or an early exit does not leave a server behind (a server
 * normally ends by itself when its stdin closes; this covers one that would not). The runtime
 * adapter says how to hear the end: Node's and Bun's `process.once("exit")`, Deno's `unload`
 * event; it is hooked once, on the first child.
 *
 * Returns `track(child, exited)`: a child is forgotten as soon as `exited` settles, since a signal
 * after that could reach a process that reused its pid.
 */
export function createOrphanReaper(onProgramEnd: (reap: () => void) => void): (child: TerminableChild, exited: Promise<unknown>) => void {
  const running = new Set<TerminableChild>();
  let hooked = false;
  const reap = (): void => {
    for (const child of running) {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
    }
  };
  return (child, exited) => {
    running.add(child);
    const forget = (): void => void running.delete(child);
    exited.then(forget, forget);
    if (hooked) return;
    hooked = true;
    onProgramEnd(reap);
  };
}
