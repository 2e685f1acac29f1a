import { expect, it } from "vitest";
import { MAX_REPLY_NESTING, nestsDeeperThan } from "../../src/util/json-nesting.js";

const nested = (depth: number, inner: unknown = 1): unknown => (depth === 0 ? inner : [nested(depth - 1, inner)]);

it("counts the levels of arrays and objects, not brackets inside strings", () => {
  expect(nestsDeeperThan(JSON.stringify(nested(200)), 199)).toBe(true);
  expect(nestsDeeperThan(JSON.stringify(nested(200)), 200)).toBe(false);
  expect(nestsDeeperThan(JSON.stringify({ a: { b: [{}] } }), 3)).toBe(true);
  // Brackets, escaped quotes and backslashes inside strings are text.
  const tricky = { s: `${"[{".repeat(300)}\\"${"[".repeat(300)}\\`, t: '"]]"', u: nested(5, "\\") };
  expect(nestsDeeperThan(JSON.stringify(tricky), 6)).toBe(false);
  expect(nestsDeeperThan(JSON.stringify(tricky), 5)).toBe(true);
  expect(MAX_REPLY_NESTING).toBe(125);
});
