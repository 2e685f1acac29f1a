// secretRedactor: the WebSocket transport's secrets, taken out by value of a text (the close
// reason) and of a frame (JSON text, which must stay the same JSON but for them).
import { describe, expect, it } from "vitest";
import { relayProtocols } from "../src/relay-protocol.js";
import { secretRedactor } from "../src/secret-redactor.js";

const TOKEN = "kT7q2mZp9xW4vN8rL3sY6bH1cJ5fD0gA";

describe("secretRedactor", () => {
  it("is undefined when there is nothing of 8 characters or more to redact", () => {
    expect(secretRedactor(undefined, undefined)).toBeUndefined();
    expect(secretRedactor("short", ["abc"])).toBeUndefined();
    // The relay's own subprotocol is public: it is not a secret.
    expect(secretRedactor(undefined, ["codex-rpc.v1"])).toBeUndefined();
  });

  it("redacts the token, and leaves a piece shorter than 8 characters alone", () => {
    expect(secretRedactor("abcdefgh", undefined)?.text("x abcdefgh y")).toBe("x [REDACTED] y");
    expect(secretRedactor(TOKEN, ["abc"])?.text("abc abcd")).toBe("abc abcd");
  });

  it("redacts a relay token's subprotocol whole and the token alone, the public subprotocol not", () => {
    const redactor = secretRedactor(undefined, relayProtocols(TOKEN))!;
    expect(redactor.text(`codex-rpc.v1, codex-rpc.token.${TOKEN}; ${TOKEN}`)).toBe("codex-rpc.v1, [REDACTED]; [REDACTED]");
  });

  it("leaves a frame without a secret as it is", () => {
    const frame = JSON.stringify({ method: "x", params: { text: "nothing here" } });
    expect(secretRedactor(TOKEN, undefined)!.frame(frame)).toBe(frame);
  });

  it("finds a secret in a frame as JSON escapes it", () => {
    const token = 'a"quoted\\token';
    const frame = JSON.stringify({ id: 1, error: { code: 1, message: `got ${token}` } });
    const redacted = secretRedactor(token, undefined)!.frame(frame);
    expect(JSON.parse(redacted)).toEqual({ id: 1, error: { code: 1, message: "got [REDACTED]" } });
  });

  it("keeps the frame JSON when a replacement would cut an escape sequence: the parsed strings are redacted instead", () => {
    // The text holds a newline then "Q7x2mZp9xW4vN8r" (not the token), and the token itself once.
    const token = "nQ7x2mZp9xW4vN8r";
    const frame = JSON.stringify({ method: "m", params: { text: `line\nQ7x2mZp9xW4vN8r and ${token}`, [token]: [token], ["__proto__"]: token } });
    const redacted = secretRedactor(token, undefined)!.frame(frame);
    const value = JSON.parse(redacted) as { params: Record<string, unknown> };
    expect(value.params.text).toBe("line\nQ7x2mZp9xW4vN8r and [REDACTED]");
    expect(value.params["[REDACTED]"]).toEqual(["[REDACTED]"]);
    expect(Object.getOwnPropertyDescriptor(value.params, "__proto__")?.value).toBe("[REDACTED]");
  });

  it("redacts a frame that is not JSON as text (its excerpt goes into a diagnostic)", () => {
    expect(secretRedactor(TOKEN, undefined)!.frame(`not json ${TOKEN}`)).toBe("not json [REDACTED]");
  });
});
