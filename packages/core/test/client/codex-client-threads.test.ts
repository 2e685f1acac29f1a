// The client's thread operations: `threads()` (thread/list, paged) and `forkThread` (a forked
// thread is resumed on reconnect like a started one; an archived one is not).
import { firstValueFrom } from "rxjs";
import { describe, expect, it } from "vitest";
import { CodexClient, type Transport } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

describe("client.threads()", () => {
  it("pages thread/list lazily with the caller's filters, each thread once", async () => {
    const { server, client } = await connect();
    const pages: Record<string, { data: { id: string }[]; nextCursor: string | null }> = {
      "": { data: [{ id: "c" }], nextCursor: "2" },
      "2": { data: [{ id: "b" }, { id: "c" }], nextCursor: "3" }, // codex 0.169.0 can list a thread twice
      "3": { data: [{ id: "a" }], nextCursor: null },
    };
    server.respond("thread/list", (params) => ({ result: { ...pages[(params as { cursor?: string }).cursor ?? ""], backwardsCursor: null } }));
    const ids: string[] = [];
    for await (const thread of client.threads({ limit: 1, archived: true })) ids.push(thread.id);
    expect(ids).toEqual(["c", "b", "a"]);
    const sent = server.received.filter((m) => "method" in m && m.method === "thread/list").map((m) => (m as { params: unknown }).params);
    expect(sent).toEqual([
      { limit: 1, archived: true },
      { limit: 1, archived: true, cursor: "2" },
      { limit: 1, archived: true, cursor: "3" },
    ]);
    await client.close();
  });

  it("an aborted signal stops the listing with RequestAbortedError", async () => {
    const { server, client } = await connect();
    server.respond("thread/list", () => ({ result: { data: [{ id: "a" }], nextCursor: "again", backwardsCursor: null } }));
    const controller = new AbortController();
    controller.abort();
    const iterator = client.threads({}, { signal: controller.signal })[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toMatchObject({ code: "REQUEST_ABORTED", method: "thread/list" });
    await client.close();
  });
});

describe("client.forkThread()", () => {
  it("a forked thread is resumed on reconnect; an archived thread is not", async () => {
    const servers: FakeAppServer[] = [];
    const factory = async (): Promise<Transport> => {
      const server = new FakeAppServer();
      server.respond("thread/fork", () => ({ result: { thread: { id: "forked", turns: [] } } }));
      server.respond("thread/archive", () => ({ result: {} }));
      server.respond("thread/resume", (params) => ({ result: { thread: { id: (params as { threadId: string }).threadId, turns: [] } } }));
      servers.push(server);
      return server.transport;
    };
    const client = await CodexClient.connect(factory, { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
    const archived = await client.startThread();
    const fork = await client.forkThread(archived.id, { approvalPolicy: "never" });
    expect(fork.id).toBe("forked");
    await archived.archive();
    const reconnected = firstValueFrom(client.reconnections$);
    servers[0]!.crash();
    const { threads } = await reconnected;
    expect(threads.map((thread) => thread.threadId)).toEqual(["forked"]);
    const resumes = servers[1]!.received.filter((m) => "method" in m && m.method === "thread/resume");
    expect(resumes).toEqual([expect.objectContaining({ params: { threadId: "forked", approvalPolicy: "never" } })]);
    await client.close();
  });
});
