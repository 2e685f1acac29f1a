import { createOrphanReaper } from "@codex-rpc/core/process";
import type { DenoChildProcess } from "./deno-stdio-transport.js";

// The program's end is Deno's `unload` event (the event loop ran out, or `Deno.exit()`). Deno has a
// global addEventListener; elsewhere (the fake-process tests on Node) there is nothing to hook.
const track = createOrphanReaper((reap) => {
  if (typeof addEventListener === "function") addEventListener("unload", reap);
});

/** Sends SIGTERM to `child` if this Deno program ends while the child still runs (see createOrphanReaper). */
export function terminateOnUnload(child: DenoChildProcess): void {
  track(child, child.status);
}
