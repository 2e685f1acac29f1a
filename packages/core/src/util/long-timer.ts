/**
 * `setTimeout` stores its delay in a signed 32-bit integer: anything above 2^31−1 ms (about 24.8
 * days), `Infinity` included, fires after 1 ms on every runtime. Timeouts a user configures go
 * through here instead, so a long one waits as long as asked and `Infinity` means none.
 */

/** The longest delay a single `setTimeout` honours. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** Cancels a timer started by `startTimer` (calling it again does nothing). */
export type CancelTimer = () => void;

/**
 * Runs `callback` once after `ms` milliseconds and returns a canceller. `Infinity` starts no timer;
 * a delay past MAX_TIMER_DELAY_MS is waited out in steps; a negative delay counts as 0.
 *
 * @throws RangeError for NaN (a misspelt option must not turn into "fire now").
 */
export function startTimer(ms: number, callback: () => void): CancelTimer {
  checkTimeout(ms, "timeout");
  if (ms === Infinity) return () => {};
  let remaining = Math.max(0, ms);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    const step = Math.min(remaining, MAX_TIMER_DELAY_MS);
    remaining -= step;
    timer = setTimeout(remaining > 0 ? arm : callback, step);
  };
  arm();
  return () => clearTimeout(timer);
}

/** Rejects a configured timeout that no timer can honour: NaN, or not a number. */
export function checkTimeout(ms: number, name: string): void {
  if (typeof ms !== "number" || Number.isNaN(ms)) throw new RangeError(`${name} must be a number of milliseconds or Infinity, got ${String(ms)}`);
}
