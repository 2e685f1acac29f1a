import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the echoed-secrets example (examples/ws-secrets.mjs)", () => {
  it("a server echoing the bearer token in an error reply and its close reason, codex echoing the relay token: the client sees [REDACTED] every time", () => {
    const stdout = runExample("ws-secrets.mjs");
    expect(stdout).toContain('1. error reply: thread/list (id 2) failed: token [REDACTED] has no scope (-32000); data {"echo":["[REDACTED]"]}');
    expect(stdout).toContain("1. close: thread/list (id 3) failed: connection closed; server closed the connection (code 4001: token [REDACTED] revoked)");
    expect(stdout).toContain('1. client.closed: {"reason":"eof","closeCode":4001,"closeReason":"token [REDACTED] revoked"}');
    expect(stdout).toContain("2. codex echoed the prompt as: Here is my relay token, [REDACTED]: do not repeat it");
    expect(stdout).toContain("2. the model: Your token is [REDACTED], I should not have said so.");
    expect(stdout).toContain("2. the relay token appears in the page's turn: no");
    expect(stdout).not.toContain("example-capability-token-5f2c9a7e1b");
    expect(stdout).not.toContain("Kq7wZ2pX9mB4vN8rL3sY6hJ1cD5fG0aT");
  });
});
