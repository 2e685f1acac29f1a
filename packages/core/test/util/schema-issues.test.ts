import { describe, expect, it } from "vitest";
import { issueLines, issuePath } from "../../src/util/schema-issues.js";

describe("schema issues as text", () => {
  it("writes issue paths as a.b[0], and the root as nothing", () => {
    expect(issuePath({ message: "x", path: ["a", { key: "b" }, 0] })).toBe("a.b[0]");
    expect(issuePath({ message: "x" })).toBe("");
  });

  it("lists at most `max` issues and counts the rest", () => {
    const issues = [1, 2, 3, 4].map((n) => ({ message: `m${n}`, path: ["k", n] }));
    expect(issueLines(issues, 2)).toEqual(["k[1]: m1", "k[2]: m2", "and 2 more"]);
  });

  it("turns whatever a validator returned into lines, never a throw", () => {
    expect(issueLines(5, 10)).toEqual(["invalid"]);
    expect(issueLines([null, { path: "nope" }, { message: 7, path: [{ key: null }] }], 10)).toEqual(["invalid", "invalid", "null: 7"]);
  });
});
