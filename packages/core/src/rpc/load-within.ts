import { RequestAbortedError, RequestTimeoutError } from "../errors/errors.js";
import { startTimer } from "../util/long-timer.js";

/**
 * Waits for a module loaded on demand (`import()`) as call `method` would wait for its reply: a
 * chunk that never arrives (a stalled fetch in a browser) must not hold the call for ever. Settles
 * as `load` does, unless first `remainingMs` (default `timeoutMs`) pass (RequestTimeoutError with
 * `method` and `timeoutMs`), `signal` aborts (RequestAbortedError), or a member of `waits` is
 * called with an error (the connection stops them with ConnectionClosedError when it closes).
 * The timer, the listener and the entry in `waits` are gone once it settles, and a load that
 * completes after that is ignored: what the caller chains on the result never runs.
 */
export function loadWithin<M>(
  load: Promise<M>,
  method: string,
  timeoutMs: number,
  signal?: AbortSignal,
  waits?: Set<(error: unknown) => void>,
  remainingMs = timeoutMs,
): Promise<M> {
  return new Promise<M>((resolve, reject) => {
    // Without an error: the load settled, and the result follows it (fulfilled or rejected).
    const stop = (error?: unknown) => {
      cancel();
      signal?.removeEventListener("abort", onAbort);
      waits?.delete(stop);
      if (error) reject(error);
      else resolve(load);
    };
    const onAbort = () => stop(new RequestAbortedError(method, undefined, signal?.reason));
    const cancel = startTimer(remainingMs, () => stop(new RequestTimeoutError(method, undefined, timeoutMs)));
    const settled = () => stop();
    waits?.add(stop);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    load.then(settled, settled);
  });
}
