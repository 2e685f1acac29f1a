// Interrupting a turn codex has accepted but not begun: codex (and the fake, which imitates it)
// refuses `turn/interrupt` until the turn's `turn/started`, and the turn then runs on. The client
// sends it again once the turn shows itself; an already aborted signal sends nothing at all.
// Against the real codex: test/early-cancel.real-codex.test.ts.
import { expect, it } from "vitest";
import { RequestAbortedError, ServerError } from "@codex-rpc/core";
import { connect } from "../support/connect-to-fake.js";

const methodsOf = (received: readonly unknown[]) => received.map((m) => (m as { method?: string }).method).filter((m) => m !== undefined);

it("a run() whose signal is already aborted sends nothing: `completed` and `started` reject with REQUEST_ABORTED, no timer is left", async () => {
  const { server, client } = await connect({ turns: [{ hold: true }] });
  const thread = await client.startThread();
  const controller = new AbortController();
  controller.abort();
  const timersBefore = process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
  const turn = thread.run("hi", { signal: controller.signal, turnTimeoutMs: 60_000 });
  await expect(turn.completed).rejects.toBeInstanceOf(RequestAbortedError);
  await expect(turn.started).rejects.toMatchObject({ code: "REQUEST_ABORTED", method: "turn/start" });
  expect(process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length).toBe(timersBefore);
  expect(methodsOf(server.received)).not.toContain("turn/start");
  // The thread is free for the next turn.
  expect((await thread.run("next").started).length).toBeGreaterThan(0);
  await client.close();
});

it("interrupt() before the turn's turn/started: refused, sent again once turn/started came; the turn ends interrupted", async () => {
  const { server, client } = await connect();
  const thread = await client.startThread();
  const turn = { id: "t1", items: [], status: "inProgress", error: null };
  let begun = false;
  // As codex: `turn/start` is answered before the turn begins, and an interrupt before then is refused.
  server.respond("turn/start", () => ({ result: { turn } }));
  server.respond("turn/interrupt", () => {
    if (!begun) return { error: { code: -32600, message: "no active turn to interrupt" } };
    setTimeout(() => server.notify("turn/completed", { threadId: thread.id, turn: { ...turn, status: "interrupted" } }), 0);
    return { result: {} };
  });
  const running = thread.run("hi");
  await running.started;
  const interrupting = running.interrupt();
  const interrupts = () => methodsOf(server.received).filter((m) => m === "turn/interrupt").length;
  while (interrupts() === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  await new Promise((resolve) => setTimeout(resolve, 10)); // the refusal has come back; nothing is sent until the turn begins
  expect(interrupts()).toBe(1);
  begun = true;
  server.notify("turn/started", { threadId: thread.id, turn });
  await interrupting;
  expect((await running.completed).status).toBe("interrupted");
  expect(interrupts()).toBe(2);
  await client.close();
});

it("a refusal once the turn has shown itself is the answer: interrupt() rejects with it, nothing is sent again", async () => {
  const { server, client } = await connect({ turns: [{ hold: true }] });
  server.respond("turn/interrupt", () => ({ error: { code: -32600, message: "not now" } }));
  const thread = await client.startThread();
  const turn = thread.run("hi");
  await new Promise<void>((resolve) => turn.text$.subscribe(() => resolve()));
  const error = await turn.interrupt().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ServerError);
  expect(error).toMatchObject({ rpcCode: -32600, method: "turn/interrupt" });
  expect(methodsOf(server.received).filter((m) => m === "turn/interrupt")).toHaveLength(1);
  await client.close();
});

it("a turn timed out before codex began it is interrupted once it begins, and the thread's next turn waits for that", async () => {
  const { server, client } = await connect({ turns: [{ hold: true }, { deltas: ["next"] }] });
  const thread = await client.startThread();
  const ends: string[] = [];
  client.notifications("turn/completed").subscribe((params) => ends.push(params.turn.status));
  const timedOut = thread.run("one", { turnTimeoutMs: 0 });
  const next = thread.run("two");
  await expect(timedOut.completed).rejects.toMatchObject({ code: "TURN_TIMEOUT" });
  expect(await next.completed).toMatchObject({ status: "completed", finalText: "next" });
  // The held turn ends only by an accepted interrupt, before the next turn ran.
  expect(ends).toEqual(["interrupted", "completed"]);
  const methods = methodsOf(server.received);
  const lastInterrupt = methods.lastIndexOf("turn/interrupt");
  expect(lastInterrupt).toBeGreaterThan(-1);
  expect(methods.lastIndexOf("turn/start")).toBeGreaterThan(lastInterrupt);
  await client.close();
});
