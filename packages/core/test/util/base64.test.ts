import { describe, expect, it } from "vitest";
import { decodeBase64, encodeBase64 } from "../../src/util/base64.js";

describe("base64", () => {
  it("matches Buffer for every length 0–64 of random bytes, both ways", () => {
    for (let length = 0; length <= 64; length++) {
      const bytes = new Uint8Array(length).map(() => Math.floor(Math.random() * 256));
      const expected = Buffer.from(bytes).toString("base64");
      expect(encodeBase64(bytes)).toBe(expected);
      expect(decodeBase64(expected)).toEqual(bytes);
      expect(decodeBase64(expected.replace(/=+$/, ""))).toEqual(bytes);
    }
  });

  it("ignores whitespace and rejects characters outside the alphabet", () => {
    expect(new TextDecoder().decode(decodeBase64("aGVs\nbG8="))).toBe("hello");
    expect(() => decodeBase64("aGVs*G8=")).toThrow(TypeError);
  });
});
