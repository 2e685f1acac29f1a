// StderrTail and stripAnsi: the runtime-free stderr handling every process adapter (stdio, Deno, Bun) shares.
import { describe, expect, it } from "vitest";
import { StderrTail, stripAnsi } from "../../src/process.js";

describe("stripAnsi", () => {
  it("removes colours, cursor moves and OSC hyperlinks, keeping the text", () => {
    expect(stripAnsi("\u001b[2m2026-11-22T16:00:00Z\u001b[0m \u001b[32m INFO\u001b[0m ready")).toBe("2026-11-22T16:00:00Z  INFO ready");
    expect(stripAnsi("\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007 \u001b[2K\u001b[1Gdone")).toBe("link done");
  });
});

describe("StderrTail", () => {
  it("joins chunks split mid-line, skips blank lines and keeps only the last lines", () => {
    const seen: string[] = [];
    const tail = new StderrTail(2, (line) => seen.push(line));
    tail.push("one\ntw");
    tail.push("o\n\n   \nthree\nfour");
    expect(tail.lines()).toEqual(["two", "three"]);
    tail.flush(); // a last line without a newline still counts
    expect(tail.lines()).toEqual(["three", "four"]);
    expect(seen).toEqual(["one", "two", "three", "four"]);
  });

  it("cleans each line: ANSI stripped, secrets redacted", () => {
    const tail = new StderrTail(5);
    tail.push("\u001b[31mERROR\u001b[0m refresh failed: refresh_token=rt_abcdef0123 Authorization: Bearer sk-proj-0123456789abcdefghijkl\n");
    const [line] = tail.lines();
    expect(line).toMatch(/^ERROR refresh failed: refresh_token=\[REDACTED\] Authorization: \[REDACTED\]/);
    expect(line).not.toContain("rt_abcdef0123");
    expect(line).not.toContain("sk-proj");
  });

  it("cuts a runaway line instead of growing with it", () => {
    const tail = new StderrTail(1);
    for (let i = 0; i < 100; i++) tail.push("x".repeat(1000));
    tail.push("\nnext\n");
    expect(tail.lines()).toEqual(["next"]);
    const cut = new StderrTail(2);
    cut.push(`${"y".repeat(10_000)}\n`);
    expect(cut.lines()[0]).toMatch(/^y{4000} …\[cut\]$/);
  });

  it("returns a copy of its lines", () => {
    const tail = new StderrTail(3);
    tail.push("a\n");
    tail.lines().push("mutated");
    expect(tail.lines()).toEqual(["a"]);
  });
});
