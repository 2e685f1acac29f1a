import type { BackoffOptions } from "../util/backoff.js";

/** How requests answered -32001 "Server overloaded; retry later." are retried. */
export interface OverloadRetryOptions extends BackoffOptions {
  /** Retries after the first attempt (default 5); then ServerOverloadedError. Delays default to 100 ms doubling up to 5 000 ms. */
  readonly maxRetries: number;
}

export function resolveOverloadRetry(options: Partial<OverloadRetryOptions> = {}): OverloadRetryOptions {
  return {
    maxRetries: options.maxRetries ?? 5,
    initialDelayMs: options.initialDelayMs ?? 100,
    maxDelayMs: options.maxDelayMs ?? 5_000,
    random: options.random ?? Math.random,
  };
}
