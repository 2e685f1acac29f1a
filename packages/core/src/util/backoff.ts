/** How far apart attempts are: exponential, bounded, with jitter. */
export interface BackoffOptions {
  /** Delay before the first retry in milliseconds; doubles each time. */
  readonly initialDelayMs: number;
  /** Upper bound of one delay. */
  readonly maxDelayMs: number;
  /** Source of jitter in [0, 1); tests pass their own. */
  readonly random: () => number;
}

/**
 * The delay before retry number `attempt` (from 1), with "equal jitter": half the delay is fixed,
 * half random, so retries from many clients spread out but none retries immediately.
 */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + (ceiling / 2) * options.random();
}
