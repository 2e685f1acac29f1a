import { describe, expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";

const turns = (...ids: string[]) => ids.map((id) => ({ id, status: "completed", items: [], error: null }));

describe("thread.rollback() (fake server)", () => {
  it("reads the newest `count` turns and reverts to the oldest of them", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    server.respond("thread/turns/list", () => ({ result: { data: turns("t3", "t2"), nextCursor: "more", backwardsCursor: null } }));
    server.respond("thread/revert", () => ({ result: { thread: { id: thread.id }, turnsBackwardsCursor: null, itemsBackwardsCursor: null } }));
    await thread.rollback(2);
    const sent = server.received.filter((m) => "method" in m && (m.method === "thread/turns/list" || m.method === "thread/revert"));
    expect(sent).toEqual([
      expect.objectContaining({ method: "thread/turns/list", params: { threadId: thread.id, limit: 2, sortDirection: "desc", itemsView: "notLoaded" } }),
      expect.objectContaining({ method: "thread/revert", params: { threadId: thread.id, beforeTurnId: "t2" } }),
    ]);
    await client.close();
  });

  it("one turn by default; fewer turns than asked, or a count that is not an integer ≥ 1, is a RangeError and reverts nothing", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    server.respond("thread/turns/list", () => ({ result: { data: turns("only"), nextCursor: null, backwardsCursor: null } }));
    server.respond("thread/revert", () => ({ result: { thread: { id: thread.id }, turnsBackwardsCursor: null, itemsBackwardsCursor: null } }));
    await thread.rollback();
    expect(server.received.filter((m) => "method" in m && m.method === "thread/revert")).toEqual([
      expect.objectContaining({ params: { threadId: thread.id, beforeTurnId: "only" } }),
    ]);
    await expect(thread.rollback(2)).rejects.toThrow(/has 1 turn\(s\), fewer than 2/);
    for (const bad of [0, -1, 1.5, Number.NaN]) await expect(thread.rollback(bad)).rejects.toBeInstanceOf(RangeError);
    expect(server.received.filter((m) => "method" in m && m.method === "thread/revert")).toHaveLength(1);
    await client.close();
  });
});
