import { startTimer } from "./long-timer.js";

/** Whether `promise` settles within `ms` (`Infinity`: waits for it); the timer is cleared either way, so nothing is left pending. */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const cancel = startTimer(ms, () => resolve(false));
    const settled = (): void => {
      cancel();
      resolve(true);
    };
    promise.then(settled, settled);
  });
}
