import { describe, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { fakePeer, tick } from "./support/fake-peer.js";
import { RelayMultiplexer } from "../src/index.js";
import { scopeOf, scopePageIds, unscopeErrorData, unscopeMessage, unscopePageIds } from "../src/page-ids.js";

describe("page-chosen ids, scoped per connection", () => {
  it("scopes every page-chosen id of a request, copying the params and leaving the rest alone", () => {
    const params = { processId: "p1", command: ["ls"], watchId: "w", threadId: "t" };
    const { params: scoped, ids } = scopePageIds("command/exec", params, 7);
    expect(scoped).toEqual({ processId: "r7.p1", command: ["ls"], watchId: "w", threadId: "t" });
    expect(params.processId).toBe("p1");
    expect(ids).toEqual([{ page: "p1", upstream: "r7.p1" }]);
    expect(scopePageIds("fs/watch", { path: "/", watchId: "w" }, 7).params).toEqual({ path: "/", watchId: "r7.w" });
    const plain = { command: ["ls"] };
    expect(scopePageIds("command/exec", plain, 7).params).toBe(plain);
    expect(scopePageIds("command/exec", undefined, 7)).toEqual({ params: undefined, ids: [] });
  });

  it("a page that writes another connection's scoped form gets it inside its own scope", () => {
    const { params } = scopePageIds("command/exec/terminate", { processId: "r2.p1" }, 1);
    expect(params).toEqual({ processId: "r1.r2.p1" });
    expect(scopeOf("command/exec/outputDelta", params)).toBe(1);
    expect(unscopePageIds("command/exec/outputDelta", params, 1)).toEqual({ processId: "r2.p1" });
  });

  it("leaves the ids codex chose alone, though their fields share the names", () => {
    const switchSession = { sessionId: "sess-B", accountId: "acc" };
    expect(scopePageIds("accountSession/switch", switchSession, 3).params).toBe(switchSession);
    const terminate = { threadId: "t", processId: "1234" };
    expect(scopePageIds("thread/backgroundTerminals/terminate", terminate, 3).params).toBe(terminate);
    expect(scopeOf("thread/backgroundTerminals/list", { processId: "1234" })).toBe("none");
  });

  it("tells whose scope a notification is in: a connection, none, or an id no page chose", () => {
    expect(scopeOf("command/exec/outputDelta", { processId: "r12.p1", stream: "stdout" })).toBe(12);
    expect(scopeOf("fs/changed", { watchId: "w1" })).toBe("unscoped");
    expect(scopeOf("account/rateLimits/updated", { rateLimits: {} })).toBe("none");
    expect(scopeOf("fs/changed", null)).toBe("none");
  });

  it("takes only the given connection's scope off, and puts codex's quoted ids back in error messages", () => {
    expect(unscopePageIds("command/exec", { processId: "r3.p1" }, 4)).toEqual({ processId: "r3.p1" });
    const result = { path: "/tmp" };
    expect(unscopePageIds("fs/watch", result, 4)).toBe(result);
    expect(unscopeMessage('no active command/exec for process id "r4.p1"', [{ page: "p1", upstream: "r4.p1" }])).toBe(
      'no active command/exec for process id "p1"',
    );
  });

  it("puts the page's ids back in an error's data too: a string, or strings anywhere in a JSON value, escaped or not", () => {
    const ids = [
      { page: "p1", upstream: "r4.p1" },
      { page: 'q"2', upstream: 'r4.q"2' },
    ];
    expect(unscopeErrorData('process "r4.p1" is gone', ids)).toBe('process "p1" is gone');
    expect(unscopeErrorData({ processId: "r4.p1", tried: ['r4.q"2', "r5.p1"], n: 3 }, ids)).toEqual({ processId: "p1", tried: ['q"2', "r5.p1"], n: 3 });
    const untouched = { note: "nothing of the page's" };
    expect(unscopeErrorData(untouched, ids)).toBe(untouched);
    expect(unscopeErrorData(undefined, ids)).toBeUndefined();
    expect(unscopeErrorData(null, ids)).toBeNull();
    expect(unscopeErrorData({ processId: "r4.p1" }, [])).toEqual({ processId: "r4.p1" });
    // Past 64 levels a value passes as it is (the page's delivery reports what cannot be serialized).
    const deep = JSON.parse(`${"[".repeat(100_000)}"r4.p1"${"]".repeat(100_000)}`) as unknown;
    expect(unscopeErrorData(deep, ids)).toBe(deep);
  });

  it("replaces ids in the strings themselves, standing alone: no escape taken for part of an id, no id inside a longer word (review 8)", () => {
    // Rewriting the JSON text broke these: `\r` + `1.x` read as `r1.x` (invalid JSON, the answer lost), `\r1.u0041` as "A".
    expect(unscopeErrorData({ output: "\r1.x" }, [{ page: "x", upstream: "r1.x" }])).toEqual({ output: "\r1.x" });
    expect(unscopeErrorData({ output: "\r1.u0041" }, [{ page: "u0041", upstream: "r1.u0041" }])).toEqual({ output: "\r1.u0041" });
    expect(unscopeErrorData({ processId: "r1.a", cwd: "/srv/builder1.app/work" }, [{ page: "a", upstream: "r1.a" }])).toEqual({
      processId: "a",
      cwd: "/srv/builder1.app/work",
    });
    expect(unscopeMessage('process "r1.p1" (not r1.p10) is gone', [{ page: "p1", upstream: "r1.p1" }])).toBe('process "p1" (not r1.p10) is gone');
  });
});

it("an error answer from codex reaches the page with its own ids in the message and in the data", async () => {
  const server = new FakeAppServer();
  server.respond("command/exec/write", (params) => ({
    error: {
      code: -32600,
      message: `no active command/exec for process id "${(params as { processId: string }).processId}"`,
      data: { processId: (params as { processId: string }).processId },
    },
  }));
  const mux = await RelayMultiplexer.start(server.transport, {});
  const peer = fakePeer();
  const connection = mux.attach(peer);
  connection.receive({ id: 0, method: "initialize", params: { clientInfo: { name: "page", version: "0" } } });
  connection.receive({ method: "initialized" });
  connection.receive({ id: 1, method: "command/exec/write", params: { processId: "p1", deltaBase64: "" } });
  await tick();
  const upstream = server.received.find((m) => "method" in m && m.method === "command/exec/write") as { params: { processId: string } };
  expect(upstream.params.processId).toMatch(/^r\d+\.p1$/);
  expect(peer.sent.find((m) => m.id === 1)?.error).toEqual({ code: -32600, message: 'no active command/exec for process id "p1"', data: { processId: "p1" } });
});
