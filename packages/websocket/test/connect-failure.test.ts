// What a refused upgrade is called: a relay's refusal (the page offered its subprotocols) says
// what the relay refused; only a direct connection's 403 mentions codex's Origin rule.
import { describe, expect, it } from "vitest";
import { type ConnectFailure, describeConnectFailure, readyzUrlOf } from "../src/connect-failure-probe.js";

const URL = "ws://127.0.0.1:4510/";
const base: ConnectFailure = { url: URL, detail: undefined, sentToken: true, timedOut: false, aborted: false, readyzUrl: undefined, fetch: undefined };
const answering = (status: number) => async () => ({ ok: status < 300, status });

describe("describeConnectFailure through a relay", () => {
  it("names what the relay refused when the runtime gives the status", async () => {
    for (const [status, code, words] of [
      [401, "UNAUTHORIZED", /refused by the relay with HTTP 401: it did not accept the token/],
      [403, "UNAUTHORIZED", /refused by the relay with HTTP 403: it does not allow this page's origin/],
      [400, "CONNECT_FAILED", /refused by the relay with HTTP 400: it takes no query/],
    ] as const) {
      const error = await describeConnectFailure({ ...base, relay: true, detail: `Unexpected server response: ${status}` });
      expect(error).toMatchObject({ code, status });
      expect(error.message).toMatch(words);
      expect(error.message).not.toMatch(/codex/);
    }
  });

  it("asks the relay's discovery document when the runtime does not say (browsers, Node 22)", async () => {
    const readyzUrl = readyzUrlOf(URL, "/.well-known/codex-rpc-relay");
    expect(readyzUrl).toBe("http://127.0.0.1:4510/.well-known/codex-rpc-relay");
    const token = await describeConnectFailure({ ...base, relay: true, readyzUrl, fetch: answering(200) });
    expect(token).toMatchObject({ code: "UNAUTHORIZED", status: undefined });
    expect(token.message).toMatch(/the relay is up and accepts this origin .* most likely refused the token/);
    const origin = await describeConnectFailure({ ...base, relay: true, readyzUrl, fetch: answering(403) });
    expect(origin.message).toMatch(/the relay is up and refuses this origin/);
    // A page tells the two apart by `status` too (review 7): 403 from the discovery document, none for the token.
    expect(origin).toMatchObject({ code: "UNAUTHORIZED", status: 403 });
  });

  it("keeps codex's Origin rule for a direct connection's 403", async () => {
    const error = await describeConnectFailure({ ...base, detail: "Unexpected server response: 403" });
    expect(error.message).toMatch(/does not accept this request's Origin \(codex answers 403/);
  });
});
