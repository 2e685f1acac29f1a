// Turns on one thread wait for each other (codex would fold a second turn/start into the running
// turn); `whenBusy: "fail"` refuses instead. On the FakeAppServer: the order of what the client sends.
import { describe, expect, it, vi } from "vitest";
import { RequestAbortedError, ThreadBusyError } from "@codex-rpc/core";
import { connect } from "../support/connect-to-fake.js";

const sentMethods = (received: readonly unknown[]) =>
  received.flatMap((message) => {
    const { method, params } = message as { method?: string; params?: { input?: { text?: string }[] } };
    return method === "turn/start" || method === "turn/interrupt" ? [`${method} ${params?.input?.[0]?.text ?? ""}`.trim()] : [];
  });

describe("turns on one thread (fake server)", () => {
  it("queues a second run() until the first turn ended, then runs it", async () => {
    const { server, client } = await connect({ turns: [{ hold: true, deltas: ["first"] }, { deltas: ["second"] }] });
    const thread = await client.startThread();
    const first = thread.run("one");
    const second = thread.run("two");
    await first.started;
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The second turn/start waits: the server got only the first.
    expect(sentMethods(server.received)).toEqual(["turn/start one"]);
    await first.interrupt();
    expect((await first.completed).status).toBe("interrupted");
    const done = await second.completed;
    expect(done).toMatchObject({ status: "completed", finalText: "second" });
    expect(sentMethods(server.received)).toEqual(["turn/start one", "turn/interrupt", "turn/start two"]);
    expect(await second.started).not.toBe(await first.started);
    await client.close();
  });

  it("a compaction (a turn begun by another request) waits in the same line as run()'s turns", async () => {
    const { server, client } = await connect({ turns: [{ hold: true, deltas: ["first"] }] });
    server.respond("thread/compact/start", () => ({ result: {} }));
    const thread = await client.startThread();
    const first = thread.run("one");
    await first.started;
    const compaction = thread.compact();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Nothing asked for the compaction while the first turn runs.
    expect(server.received.some((message) => (message as { method?: string }).method === "thread/compact/start")).toBe(false);
    await first.interrupt();
    await first.completed;
    // Sent once the compaction's module has loaded (on demand): a loaded machine takes more than a few ms.
    await vi.waitFor(() => expect(server.received.some((message) => (message as { method?: string }).method === "thread/compact/start")).toBe(true), {
      timeout: 5_000,
    });
    compaction.interrupt().catch(() => undefined);
    await client.close();
  });

  it("a turn that timed out holds its thread until the server has taken the interrupt", async () => {
    const { server, client } = await connect({ turns: [{ hold: true }, {}] });
    let answerInterrupt!: () => void;
    server.respond("turn/interrupt", () => new Promise((resolve) => (answerInterrupt = () => resolve({ result: {} }))));
    const thread = await client.startThread();
    const first = thread.run("one", { turnTimeoutMs: 20 });
    const second = thread.run("two");
    await expect(first.completed).rejects.toMatchObject({ code: "TURN_TIMEOUT" });
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The server has not answered turn/interrupt yet: it may still run the first turn.
    expect(sentMethods(server.received)).toEqual(["turn/start one", "turn/interrupt"]);
    answerInterrupt();
    await second.started;
    expect(sentMethods(server.received)).toEqual(["turn/start one", "turn/interrupt", "turn/start two"]);
    second.interrupt().catch(() => undefined);
    await client.close();
  });

  it("does not queue turns of other threads, and a thread is free again once its turns ended", async () => {
    const { client } = await connect({ turns: [{ hold: true }, {}, {}] });
    const a = await client.startThread();
    const b = await client.startThread();
    const held = a.run("held");
    expect((await b.run("other thread").completed).status).toBe("completed");
    await held.interrupt();
    await held.completed;
    // Right after `completed`, the thread takes a turn even with whenBusy "fail".
    expect((await a.run("again", { whenBusy: "fail" }).completed).status).toBe("completed");
    await client.close();
  });

  it('refuses with ThreadBusyError under whenBusy: "fail" while a turn runs or waits, sending nothing', async () => {
    const { server, client } = await connect({ turns: [{ hold: true }] });
    const thread = await client.startThread();
    const running = thread.run("one");
    const thrown = (() => {
      try {
        thread.run("two", { whenBusy: "fail" });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(ThreadBusyError);
    expect(thrown).toMatchObject({ code: "THREAD_BUSY", threadId: thread.id, pendingTurns: 1 });
    await running.started;
    expect(sentMethods(server.received)).toEqual(["turn/start one"]);
    await running.interrupt();
    await running.completed;
    await client.close();
  });

  it("a queued turn interrupted or aborted before its place came never starts; the ones behind it still run", async () => {
    const { server, client } = await connect({ turns: [{ hold: true }, { deltas: ["last"] }] });
    const thread = await client.startThread();
    const first = thread.run("one");
    const byInterrupt = thread.run("two");
    const controller = new AbortController();
    const bySignal = thread.run("three", { signal: controller.signal });
    const last = thread.run("four");
    await byInterrupt.interrupt();
    controller.abort(new Error("user gave up"));
    for (const cancelled of [byInterrupt, bySignal]) {
      await expect(cancelled.completed).rejects.toBeInstanceOf(RequestAbortedError);
      await expect(cancelled.completed).rejects.toMatchObject({ code: "REQUEST_ABORTED", method: "turn/start" });
      await expect(cancelled.started).rejects.toBeInstanceOf(RequestAbortedError);
    }
    await first.interrupt();
    expect(await last.completed).toMatchObject({ status: "completed", finalText: "last" });
    // (An interrupt the fake refused because it came before the turn's turn/started, as codex does, is sent again.)
    expect(sentMethods(server.received).filter((method, i, all) => method !== all[i - 1])).toEqual(["turn/start one", "turn/interrupt", "turn/start four"]);
    await client.close();
  });

  it("a queued turn's turnTimeoutMs counts from run(): timed out while waiting, it never starts", async () => {
    const { server, client } = await connect({ turns: [{ hold: true }, {}] });
    const thread = await client.startThread();
    const first = thread.run("one");
    const waiting = thread.run("two", { turnTimeoutMs: 20 });
    await expect(waiting.completed).rejects.toMatchObject({ code: "TURN_TIMEOUT" });
    await first.interrupt();
    await first.completed;
    expect((await thread.run("three").completed).status).toBe("completed");
    expect(sentMethods(server.received)).toEqual(["turn/start one", "turn/interrupt", "turn/start three"]);
    await client.close();
  });

  it("moves on when the turn before failed to start", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    let calls = 0;
    server.respond("turn/start", () => {
      calls += 1;
      return calls === 1
        ? { error: { code: -32600, message: "no" } }
        : { result: { turn: { id: "t2", status: "completed", items: [], error: null, startedAt: null, completedAt: null, durationMs: null } } };
    });
    const failing = thread.run("one");
    const next = thread.run("two");
    await expect(failing.completed).rejects.toMatchObject({ code: "SERVER_ERROR" });
    expect(await next.started).toBe("t2");
    await client.close();
  });
});
