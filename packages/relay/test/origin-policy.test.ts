import { describe, expect, it } from "vitest";
import { isLoopbackHost, normalizeOrigin, originAllowed } from "../src/origin-policy.js";

describe("origin policy", () => {
  it("knows loopback hosts", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ["0.0.0.0", "192.168.1.2", "::", "example.com", "localhost.example.com"]) expect(isLoopbackHost(host)).toBe(false);
  });

  it("allows exactly the listed origins, no Origin at all (not a browser), and never `null`", () => {
    const allowed = new Set([normalizeOrigin("http://localhost:5173/")!]);
    expect(originAllowed("http://localhost:5173", allowed)).toBe(true);
    expect(originAllowed(undefined, allowed)).toBe(true);
    expect(originAllowed("http://localhost:5174", allowed)).toBe(false);
    expect(originAllowed("https://localhost:5173", allowed)).toBe(false);
    expect(originAllowed("http://localhost:5173.evil.example", allowed)).toBe(false);
    expect(originAllowed("null", allowed)).toBe(false);
    expect(originAllowed("garbage", allowed)).toBe(false);
  });
});
