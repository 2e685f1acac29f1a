import { settlesWithin } from "../util/settles-within.js";

/** What the shutdown sequence does to one server process, in the runtime's own terms. */
export interface ShutdownSteps {
  /** Settles once the process is gone. */
  readonly gone: Promise<unknown>;
  /** Whether it is gone already (then nothing is sent). */
  isGone(): boolean;
  /** Ends the process's stdin; codex exits by itself when its input ends. */
  endStdin(): void;
  /** Sends a signal. A throw (it exited meanwhile) is handed to `onKillError`. */
  kill(signal: "SIGTERM" | "SIGKILL"): void;
  onKillError(signal: "SIGTERM" | "SIGKILL", error: unknown): void;
  /** How long to wait for the exit after stdin ends, before SIGTERM. */
  readonly stdinEndTimeoutMs: number;
  /** How long to wait after SIGTERM, before SIGKILL. */
  readonly sigtermTimeoutMs: number;
}

/**
 * Every process transport's `close()`: end stdin, wait for the exit, then SIGTERM, wait, then
 * SIGKILL. Resolves once the process is gone (a SIGKILL always ends it).
 */
export async function shutDownProcess(steps: ShutdownSteps): Promise<void> {
  if (steps.isGone()) return;
  steps.endStdin();
  for (const [signal, waitedMs] of [
    ["SIGTERM", steps.stdinEndTimeoutMs],
    ["SIGKILL", steps.sigtermTimeoutMs],
  ] as const) {
    if (await settlesWithin(steps.gone, waitedMs)) return;
    try {
      steps.kill(signal);
    } catch (error) {
      steps.onKillError(signal, error);
    }
  }
  await steps.gone;
}
