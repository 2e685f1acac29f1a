import { createOrphanReaper } from "@codex-rpc/core/process";
import type { BunSubprocess } from "./bun-stdio-transport.js";

const track = createOrphanReaper((reap) => process.once("exit", reap));

/** Sends SIGTERM to `child` if this Bun process exits while the child still runs (see createOrphanReaper). */
export function terminateOnExit(child: BunSubprocess): void {
  track(child, child.exited);
}
