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
