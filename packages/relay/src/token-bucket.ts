/** Messages per second a connection may send on average, and how many at once. */
export interface RateLimit {
  /** Refill rate, messages per second. */
  readonly perSecond: number;
  /** Bucket size: the largest burst. */
  readonly burst: number;
}

/** A token bucket: `take()` is false once the connection sends faster than the limit allows. */
export class TokenBucket {
  #tokens: number;
  #last: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#tokens = limit.burst;
    this.#last = now();
  }

  take(): boolean {
    const now = this.now();
    this.#tokens = Math.min(this.limit.burst, this.#tokens + ((now - this.#last) / 1000) * this.limit.perSecond);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
