import { describe, expect, it } from "vitest";
import { createRelayToken, tokenFromSubprotocols, tokenMatches } from "../src/token.js";

describe("the launch token", () => {
  it("is 32 random bytes in base64url: fresh each time, valid in a subprotocol name", () => {
    const token = createRelayToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createRelayToken()).not.toBe(token);
  });

  it("matches only itself, whatever the length presented", () => {
    const token = createRelayToken();
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(`${token}x`, token)).toBe(false);
    expect(tokenMatches(token.slice(1), token)).toBe(false);
    expect(tokenMatches("", token)).toBe(false);
  });

  it("is read from the offered subprotocols", () => {
    expect(tokenFromSubprotocols(["codex-rpc.v1", "codex-rpc.token.abc"])).toBe("abc");
    expect(tokenFromSubprotocols(["codex-rpc.v1"])).toBeUndefined();
  });
});
