import { describe, expect, it } from "vitest";
import { runExample } from "./support/run-example.js";

describe("the relay example (examples/relay.mjs)", () => {
  it("streams page A's turn through the relay, refuses page B on A's thread and a foreign origin, and the app-server exits with the relay", () => {
    const stdout = runExample("relay.mjs");
    expect(stdout).toMatch(/^relay on ws:\/\/127\.0\.0\.1:\d+\/ \(app-server pid \d+\)/);
    expect(stdout).toMatch(
      /discovery: \{"ws":"ws:\/\/127\.0\.0\.1:\d+\/","version":"0\.1\.0","subprotocol":"codex-rpc\.v1","tokenSubprotocolPrefix":"codex-rpc\.token\."\}/,
    );
    expect(stdout).toContain("page A: Hello, page A. This answer came through the relay.\npage A: turn completed");
    expect(stdout).toMatch(/page B reading page A's thread: refused \(.*is not this connection's.*\(-32003\)\)/);
    expect(stdout).toMatch(/a page from http:\/\/evil\.example: refused \(.*HTTP 403/);
    expect(stdout).toMatch(/relay closed; app-server pid \d+ has exited/);
  });
});
