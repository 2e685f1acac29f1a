import { describe, expect, it } from "vitest";
import type { FakeAppServer } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";
import { protocolTurn as turn } from "../support/protocol-turn.js";
import { startCompaction } from "../../src/session/compaction.js";
import type { SessionHost } from "../../src/session/session-host.js";

/** What codex 0.169.0 does after `thread/compact/start`: a turn of its own with one contextCompaction item. */
function playCompaction(server: FakeAppServer, threadId: string, turnId: string): void {
  const item = { type: "contextCompaction", id: `${turnId}-item` };
  server.notify("turn/started", { threadId, turn: turn(turnId, "inProgress") });
  server.notify("item/started", { threadId, turnId, item, startedAtMs: 0 });
  server.notify("item/completed", { threadId, turnId, item, completedAtMs: 0 });
  server.notify("turn/completed", { threadId, turn: turn(turnId, "completed") });
}

describe("thread.compact() (fake server)", () => {
  it("sends thread/compact/start and follows the turn the thread starts next, whether it starts before or after the reply", async () => {
    for (const order of ["after", "before"] as const) {
      const { server, client } = await connect();
      const thread = await client.startThread();
      server.respond("thread/compact/start", () => {
        if (order === "before") playCompaction(server, thread.id, "compaction-turn");
        else setTimeout(() => playCompaction(server, thread.id, "compaction-turn"), 1);
        return { result: {} };
      });
      const compaction = thread.compact();
      expect(await compaction.started).toBe("compaction-turn");
      const done = await compaction.completed;
      expect(done).toMatchObject({ id: "compaction-turn", status: "completed", completedBy: "turn/completed" });
      expect(done.items.map((item) => item.type)).toEqual(["contextCompaction"]);
      expect(server.received.filter((m) => "method" in m && m.method === "thread/compact/start")).toEqual([
        expect.objectContaining({ params: { threadId: thread.id } }),
      ]);
      expect(server.received.some((m) => "method" in m && m.method === "turn/start")).toBe(false);
      await client.close();
    }
  });

  it("a refused thread/compact/start rejects the turn with the server's error", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    server.respond("thread/compact/start", () => ({ error: { code: -32600, message: "thread not found: x" } }));
    const compaction = thread.compact();
    await expect(compaction.completed).rejects.toMatchObject({ code: "SERVER_ERROR", rpcMessage: "thread not found: x" });
    await expect(compaction.started).rejects.toMatchObject({ code: "SERVER_ERROR" });
    await client.close();
  });

  it("the connection closing before the turn starts rejects it with ConnectionClosedError", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    server.respond("thread/compact/start", () => ({ result: {} }));
    const compaction = thread.compact();
    await new Promise((resolve) => setTimeout(resolve, 5));
    server.crash({ exitCode: 1 });
    await expect(compaction.completed).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("a server that answers thread/compact/start and starts no turn fails the compaction (ProtocolError), leaving no listener", async () => {
    const listeners = new Set<unknown>();
    const host = {
      listenToThread: (_threadId: string, listener: unknown) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      request: async () => ({}),
    } as unknown as SessionHost;
    await expect(startCompaction("t", 30)(host)).rejects.toMatchObject({
      code: "PROTOCOL_ERROR",
      message: expect.stringContaining("started no turn within 30 ms"),
    });
    expect(listeners.size).toBe(0);
  });
});
