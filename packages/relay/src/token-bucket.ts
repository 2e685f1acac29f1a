import { describeValue, isPlainObject, wholeAbove0 } from "./limits.js";

/** Messages per second a connection may send on average, and how many at once. */
export interface RateLimit {
  /** Refill rate, messages per second. */
  readonly perSecond: number;
  /** Bucket size: the largest burst. */
  readonly burst: number;
}

/** The rate limit when none is given, and the fields a partial one lacks. */
export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 100, burst: 200 };

/**
 * `given` with a missing field (`{ perSecond: 5 }`) taken from the default, checked: `perSecond` a
 * finite number above 0 (0.5 is one message every 2 s), `burst` a whole number above 0. A field
 * that is present but not such a number (NaN, 0, `undefined`, "5") is a RangeError naming it:
 * the bucket would otherwise admit everything.
 */
export function completeRateLimit(where: string, given: Partial<RateLimit> | undefined): RateLimit {
  if (given === undefined) return DEFAULT_RATE_LIMIT;
  if (!isPlainObject(given)) throw new TypeError(`${where}: rateLimit must be { perSecond, burst }, not ${describeValue(given)}`);
  const limit = { ...DEFAULT_RATE_LIMIT, ...given };
  const { perSecond } = limit;
  if (!(typeof perSecond === "number" && Number.isFinite(perSecond) && perSecond > 0)) {
    throw new RangeError(`${where}: rateLimit.perSecond must be a number above 0, not ${describeValue(perSecond)}`);
  }
  return { perSecond, burst: wholeAbove0(where, "rateLimit.burst", limit.burst) };
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
