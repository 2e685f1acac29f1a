import { describe, expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";

function sent(server: { received: readonly unknown[] }, method: string) {
  return server.received.filter((m) => (m as { method?: string }).method === method).map((m) => (m as { params?: unknown }).params);
}

describe("CodexThread operations (fake server)", () => {
  it("setName, archive, unarchive and revert send their method with this thread's id", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    server.respond("thread/name/set", () => ({ result: {} }));
    server.respond("thread/archive", () => ({ result: {} }));
    server.respond("thread/unarchive", () => ({ result: { thread: { id: thread.id, status: { type: "notLoaded" } } } }));
    server.respond("thread/revert", () => ({ result: { thread: { id: thread.id }, turnsBackwardsCursor: "c", itemsBackwardsCursor: null } }));
    await expect(thread.setName("Notes")).resolves.toBeUndefined();
    await expect(thread.archive()).resolves.toBeUndefined();
    expect(await thread.unarchive()).toMatchObject({ thread: { id: thread.id } });
    expect(await thread.revert("turn-2")).toMatchObject({ turnsBackwardsCursor: "c" });
    expect(sent(server, "thread/name/set")).toEqual([{ threadId: thread.id, name: "Notes" }]);
    expect(sent(server, "thread/archive")).toEqual([{ threadId: thread.id }]);
    expect(sent(server, "thread/unarchive")).toEqual([{ threadId: thread.id }]);
    expect(sent(server, "thread/revert")).toEqual([{ threadId: thread.id, beforeTurnId: "turn-2" }]);
    await client.close();
  });

  it("fork returns a new CodexThread of the forked thread (excludeTurns and the default approval policy unless given)", async () => {
    const { server, client } = await connect({}, { defaultApprovalPolicy: "on-request" });
    const thread = await client.startThread();
    let forks = 0;
    server.respond("thread/fork", () => ({ result: { thread: { id: `fork-${++forks}`, forkedFromId: thread.id, turns: [] } } }));
    const fork = await thread.fork();
    expect(fork.id).toBe("fork-1");
    expect(fork.info).toMatchObject({ forkedFromId: thread.id });
    await thread.fork({ approvalPolicy: "never", excludeTurns: false, lastTurnId: "t1" });
    expect(sent(server, "thread/fork")).toEqual([
      { threadId: thread.id, excludeTurns: true, approvalPolicy: "on-request" },
      { threadId: thread.id, excludeTurns: false, approvalPolicy: "never", lastTurnId: "t1" },
    ]);
    // A reply without a thread is a ProtocolError, as for thread/start.
    server.respond("thread/fork", () => ({ result: {} }));
    await expect(thread.fork()).rejects.toMatchObject({ code: "PROTOCOL_ERROR", method: "thread/fork" });
    await client.close();
  });

  it("turns() and items() page thread/turns/list and thread/items/list with this thread's id", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    server.respond("thread/turns/list", (params) => {
      const { cursor } = params as { cursor?: string };
      return { result: cursor ? { data: [{ id: "t1" }], nextCursor: null } : { data: [{ id: "t3" }, { id: "t2" }], nextCursor: "next" } };
    });
    server.respond("thread/items/list", () => ({ result: { data: [{ turnId: "t1", item: { type: "userMessage", id: "i1" } }], nextCursor: null } }));
    const ids: string[] = [];
    for await (const turn of thread.turns({ limit: 2 })) ids.push(turn.id);
    expect(ids).toEqual(["t3", "t2", "t1"]);
    expect(sent(server, "thread/turns/list")).toEqual([
      { threadId: thread.id, limit: 2 },
      { threadId: thread.id, limit: 2, cursor: "next" },
    ]);
    const items: string[] = [];
    for await (const entry of thread.items({ turnId: "t1" })) items.push(entry.item.id);
    expect(items).toEqual(["i1"]);
    expect(sent(server, "thread/items/list")).toEqual([{ threadId: thread.id, turnId: "t1" }]);
    await client.close();
  });
});
