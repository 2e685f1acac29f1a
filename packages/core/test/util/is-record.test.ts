import { describe, expect, it } from "vitest";
import { isRecord } from "../../src/util/is-record.js";

describe("isRecord", () => {
  it("is true for JSON objects only: not null, arrays or primitives", () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isRecord)).toEqual([true, true, true]);
    expect([null, undefined, [], [1], "x", 1, true].map(isRecord)).toEqual([false, false, false, false, false, false, false]);
  });
});
