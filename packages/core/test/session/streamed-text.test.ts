import { describe, expect, it } from "vitest";
import { randomSource } from "@codex-rpc/test-support/random-source.js";
import { StreamedText } from "../../src/session/streamed-text.js";

describe("StreamedText", () => {
  it("starts empty and gives back the empty string", () => {
    const text = new StreamedText();
    expect(text.isEmpty).toBe(true);
    expect(text.take()).toBe("");
  });

  it.each([1, 2, 3, 4, 5])("gives back exactly what was appended, taken at random moments (seed %i)", (seed) => {
    const random = randomSource(seed);
    const text = new StreamedText();
    let expected = "";
    let taken = "";
    // Runs of tiny pieces (joined twice over), runs of large ones (kept as they are), and mixes.
    for (let i = 0; i < 20_000; i++) {
      const size = random() < 0.02 ? 300 + Math.floor(random() * 3000) : Math.floor(random() * 40);
      // Some pieces hold a character above U+00FF (kept apart from one-byte ones), some are all of them.
      const wide = random() < 0.05 ? "’" : random() < 0.01 ? "漢字" : "";
      const piece = `${i}:${wide}`.padEnd(size, random() < 0.005 ? "—" : String.fromCharCode(97 + (i % 26)));
      text.append(piece);
      expected += piece;
      if (random() < 0.0005) {
        taken += text.take();
        expect(taken).toBe(expected);
        expect(text.isEmpty).toBe(true);
      }
    }
    expect(text.isEmpty).toBe(expected.length === taken.length);
    expect(taken + text.take()).toBe(expected);
  });
});

describe("StreamedText with wide pieces kept apart", () => {
  const batch = (n: number, piece: (i: number) => string) => Array.from({ length: n }, (_, i) => piece(i));

  it.each([
    ["a wide piece first in its run", (i: number) => (i % 64 === 0 ? `’${i}` : `a${i}`)],
    ["a wide piece last in its run", (i: number) => (i % 64 === 63 ? `${i}’` : `b${i}`)],
    ["every piece wide", (i: number) => `漢${i}`],
    ["wide pieces in a row, between one-byte ones", (i: number) => (i % 40 < 3 ? `—${i}—` : `c${i}`)],
    ["one-byte pieces above U+007F (Latin-1) beside wide ones", (i: number) => (i % 7 === 0 ? `é${i}` : i % 11 === 0 ? `€${i}` : `d${i}`)],
  ])("gives back the text in order: %s", (_, piece) => {
    const pieces = batch(64 * 64 * 2 + 17, piece);
    const text = new StreamedText();
    for (const p of pieces) text.append(p);
    expect(text.isEmpty).toBe(false);
    expect(text.take()).toBe(pieces.join(""));
    expect(text.isEmpty).toBe(true);
  });

  it("large wide pieces stay where they are, between runs that hold small wide ones", () => {
    const pieces = [
      ...batch(64, (i) => (i === 5 ? "’" : `e${i}`)),
      ...batch(64, (i) => `${"’".repeat(300)}${i}`),
      ...batch(130, (i) => (i % 9 === 0 ? `“${i}”` : `f${i}`)),
    ];
    const text = new StreamedText();
    for (const p of pieces) text.append(p);
    expect(text.take()).toBe(pieces.join(""));
  });
});
