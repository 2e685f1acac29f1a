import type { DenoChildProcess } from "./deno-stdio-transport.js";

const running = new Set<DenoChildProcess>();
let hooked = false;

/**
 * Sends SIGTERM to `child` if this Deno program ends (its `unload` event: the event loop ran out,
 * or `Deno.exit()`) while the child still runs, so a forgotten `close()` does not leave a server
 * behind. A server normally ends by itself when its stdin closes; this covers one that would not.
 */
export function terminateOnUnload(child: DenoChildProcess): void {
  running.add(child);
  // Forgotten as soon as it has exited: a signal then could reach a process that reused its pid.
  const forget = (): void => void running.delete(child);
  child.status.then(forget, forget);
  // Deno has a global addEventListener; elsewhere (the fake-process tests on Node) there is nothing to hook.
  if (hooked || typeof addEventListener !== "function") return;
  hooked = true;
  addEventListener("unload", () => {
    for (const orphan of running) {
      try {
        orphan.kill("SIGTERM");
      } catch {
        // Already gone.
      }
    }
  });
}
