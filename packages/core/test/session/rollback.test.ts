import { describe, expect, it } from "vitest";
import type { FakeAppServer } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

type Listed = { id: string; rootTurnId?: string | null };

/** Serves thread/turns/list newest first from `turns` in pages of the requested limit; answers thread/revert. */
function serveTurns(server: FakeAppServer, threadId: string, turns: readonly Listed[]): void {
  server.respond("thread/turns/list", (params) => {
    const { limit, cursor } = params as { limit: number; cursor?: string };
    const from = cursor === undefined ? 0 : Number(cursor);
    const data = turns.slice(from, from + limit).map((turn) => ({ status: "completed", items: [], error: null, ...turn }));
    return { result: { data, nextCursor: from + limit < turns.length ? String(from + limit) : null, backwardsCursor: null } };
  });
  server.respond("thread/revert", () => ({ result: { thread: { id: threadId }, turnsBackwardsCursor: null, itemsBackwardsCursor: null } }));
}

function reverts(server: FakeAppServer): unknown[] {
  return server.received.filter((m) => "method" in m && m.method === "thread/revert").map((m) => (m as { params: unknown }).params);
}

describe("thread.rollback() (fake server)", () => {
  it("reads the newest turns (newest first, items not loaded) and reverts to the `count`-th", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    serveTurns(server, thread.id, [{ id: "t3" }, { id: "t2", rootTurnId: "t2" }, { id: "t1", rootTurnId: null }]);
    await thread.rollback(2);
    expect(server.received.find((m) => "method" in m && m.method === "thread/turns/list")).toMatchObject({
      params: { threadId: thread.id, limit: 3, sortDirection: "desc", itemsView: "notLoaded" },
    });
    expect(reverts(server)).toEqual([{ threadId: thread.id, beforeTurnId: "t2" }]);
    await thread.rollback();
    expect(reverts(server).at(-1)).toEqual({ threadId: thread.id, beforeTurnId: "t3" });
    await client.close();
  });

  it("counts a review (the reviewer's sub-turn and the review turn, one rootTurnId) as one turn and reverts to its first listed part, across pages", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    // Newest first, as codex 0.169.0 lists them: the review turn, then its reviewer sub-turn.
    serveTurns(server, thread.id, [
      { id: "review", rootTurnId: "review" },
      { id: "reviewer", rootTurnId: "review" },
      { id: "t1", rootTurnId: "t1" },
    ]);
    await thread.rollback(1); // pages of 2: the group's end is seen on the second page
    expect(reverts(server).at(-1)).toEqual({ threadId: thread.id, beforeTurnId: "reviewer" });
    await thread.rollback(2);
    expect(reverts(server).at(-1)).toEqual({ threadId: thread.id, beforeTurnId: "t1" });
    await expect(thread.rollback(3)).rejects.toThrow(/has 2 turn\(s\), fewer than 3/);
    await client.close();
  });

  it("fewer turns than asked, or a count that is not an integer ≥ 1, is a RangeError and reverts nothing", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    serveTurns(server, thread.id, [{ id: "only" }]);
    await expect(thread.rollback(2)).rejects.toThrow(/has 1 turn\(s\), fewer than 2/);
    for (const bad of [0, -1, 1.5, Number.NaN]) await expect(thread.rollback(bad)).rejects.toBeInstanceOf(RangeError);
    serveTurns(server, thread.id, []);
    await expect(thread.rollback()).rejects.toThrow(/has 0 turn\(s\)/);
    expect(reverts(server)).toEqual([]);
    await client.close();
  });
});
