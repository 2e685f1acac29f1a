import { describe, expect, it } from "vitest";
import { TokenBucket } from "../src/token-bucket.js";

describe("TokenBucket", () => {
  it("allows a burst, then refills at the rate", () => {
    let now = 0;
    const bucket = new TokenBucket({ perSecond: 10, burst: 3 }, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now += 100; // one token back
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    now += 10_000; // never more than the burst
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });
});
