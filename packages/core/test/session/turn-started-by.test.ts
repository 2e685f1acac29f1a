import { describe, expect, it } from "vitest";
import type { SessionHost } from "../../src/session/session-host.js";
import { hostStartingTurnWith } from "../../src/session/turn-started-by.js";

describe("hostStartingTurnWith", () => {
  it("answers turn/start with the starter and passes every other request, and everything else of the host, through", async () => {
    const sent: unknown[] = [];
    const host: SessionHost = {
      request: async (method, params, options) => (sent.push({ method, params, options }), { from: "client" }),
      load: (_method, load) => load,
      forkThread: async () => ({ id: "fork" }),
      listenToThread: () => () => undefined,
      report: () => undefined,
      turnTimeoutMs: 1234,
    };
    const starting = hostStartingTurnWith(host, async (client) => ({ turn: { id: "started" }, hostIsTheClients: client === host }));
    expect(await starting.request("turn/start", { threadId: "t" })).toEqual({ turn: { id: "started" }, hostIsTheClients: true });
    expect(sent).toEqual([]);
    const signal = new AbortController().signal;
    expect(await starting.request("turn/interrupt", { threadId: "t", turnId: "x" }, { signal })).toEqual({ from: "client" });
    expect(sent).toEqual([{ method: "turn/interrupt", params: { threadId: "t", turnId: "x" }, options: { signal } }]);
    expect(starting.turnTimeoutMs).toBe(1234);
    expect(await starting.forkThread({})).toEqual({ id: "fork" });
  });
});
