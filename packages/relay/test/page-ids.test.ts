import { describe, expect, it } from "vitest";
import { scopeOf, scopePageIds, unscopeMessage, unscopePageIds } from "../src/page-ids.js";

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
});
