/** How requests answered -32001 "Server overloaded; retry later." are retried. */
export interface OverloadRetryOptions {
  /** Retries after the first attempt (default 5); then ServerOverloadedError. */
  readonly maxRetries: number;
  /** Delay before the first retry in milliseconds (default 100); doubles each time. */
  readonly initialDelayMs: number;
  /** Upper bound of one delay (default 5 000). */
  readonly maxDelayMs: number;
  /** Source of jitter in [0, 1) (default Math.random); tests pass their own. */
  readonly random: () => number;
}

export function resolveOverloadRetry(options: Partial<OverloadRetryOptions> = {}): OverloadRetryOptions {
  return {
    maxRetries: options.maxRetries ?? 5,
    initialDelayMs: options.initialDelayMs ?? 100,
    maxDelayMs: options.maxDelayMs ?? 5_000,
    random: options.random ?? Math.random,
  };
}

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so retries from
 * many clients spread out but none retries immediately.
 */
export function overloadRetryDelay(attempt: number, options: OverloadRetryOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + (ceiling / 2) * options.random();
}
