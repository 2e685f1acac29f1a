import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the browser client example (examples/browser-client.mjs)", () => {
  it("finds the relay, streams a turn over openRelayTransport, filters lists, names the relay's refusal, and interrupts a leaving page's turn", () => {
    const stdout = runExample("browser-client.mjs");
    expect(stdout).toMatch(/^discovery says the relay's WebSocket is ws:\/\/127\.0\.0\.1:\d+\//);
    expect(stdout).toContain("page: connected (open), codex 0.169.0");
    expect(stdout).toContain("page: Hello from the browser client.\npage: turn completed");
    expect(stdout).toContain("another page's thread/loaded/list: [] (the first page's thread is not its to see)");
    expect(stdout).toMatch(/a wrong token: WebSocket connection to .* refused by the relay with HTTP 401: it did not accept the token/);
    expect(stdout).not.toContain("not-the-token");
    expect(stdout).toContain('relay: interrupted turn … (connection #2 left): {"result":{}}');
    expect(stdout).toContain('relay: unsubscribed thread … (connection #2 left): {"result":{"status":"unsubscribed"}}');
  });
});
