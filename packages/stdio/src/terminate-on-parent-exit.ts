import { createOrphanReaper } from "@codex-rpc/core/process";
import type { ChildProcess } from "node:child_process";

// Only the `'exit'` event can be hooked here (the way execa's `cleanup` does): there is nothing to
// do when this process is SIGKILLed.
const track = createOrphanReaper((reap) => process.once("exit", reap));

/** Sends SIGTERM to `child` if this Node process exits while the child still runs (see createOrphanReaper). */
export function terminateOnParentExit(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  track(child, new Promise((resolve) => child.once("exit", resolve)));
}
