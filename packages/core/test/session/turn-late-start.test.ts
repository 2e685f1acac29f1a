// A `turn/start` that times out on the client may still be answered: codex then runs that turn,
// and would fold the thread's next `turn/start` into it. The late reply's turn is interrupted, and
// the next turn waits for that.
import { expect, it } from "vitest";
import { clientInternals } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

const turnRecord = (id: string, status = "inProgress") => ({ id, items: [], status, error: null });
const sent = (received: readonly unknown[]) =>
  received
    .map((m) => m as { method?: string; params?: { turnId?: string } })
    .filter((m) => m.method?.startsWith("turn/"))
    .map((m) => `${m.method} ${m.params?.turnId ?? ""}`.trim());

it("the late reply of a timed-out turn/start: its turn is interrupted, and the thread's next turn/start goes out after that", async () => {
  const { server, client } = await connect({}, { requestTimeoutMs: 40 });
  const thread = await client.startThread();
  let n = 0;
  let answerLate!: () => void;
  server.respond("turn/start", () => {
    const id = `t${++n}`;
    if (n === 1) return new Promise((resolve) => (answerLate = () => resolve({ result: { turn: turnRecord(id) } })));
    setTimeout(() => {
      server.notify("turn/started", { threadId: thread.id, turn: turnRecord(id) });
      server.notify("turn/completed", { threadId: thread.id, turn: turnRecord(id, "completed") });
    }, 1);
    return { result: { turn: turnRecord(id) } };
  });
  server.respond("turn/interrupt", (params) => {
    const { turnId } = params as { turnId: string };
    setTimeout(() => server.notify("turn/completed", { threadId: thread.id, turn: turnRecord(turnId, "interrupted") }), 1);
    return { result: {} };
  });
  const first = thread.run("one");
  await expect(first.completed).rejects.toMatchObject({ code: "REQUEST_TIMEOUT", method: "turn/start" });
  const second = thread.run("two");
  await new Promise((resolve) => setTimeout(resolve, 20));
  // Held: the first turn/start may still be answered.
  expect(sent(server.received)).toEqual(["turn/start"]);
  answerLate();
  expect(await second.completed).toMatchObject({ id: "t2", status: "completed" });
  expect(sent(server.received)).toEqual(["turn/start", "turn/interrupt t1", "turn/start"]);
  await client.close();
});

it("a late error reply to a timed-out turn/start releases the thread at once (no turn was started)", async () => {
  const { server, client } = await connect({ turns: [{ deltas: ["two"] }] }, { requestTimeoutMs: 40 });
  const thread = await client.startThread();
  let answerLate!: () => void;
  let first = true;
  server.respond("turn/start", () => {
    if (!first) return { result: { turn: turnRecord("t2") } };
    first = false;
    return new Promise((resolve) => (answerLate = () => resolve({ error: { code: -32600, message: "thread busy" } })));
  });
  const timedOut = thread.run("one");
  await expect(timedOut.completed).rejects.toMatchObject({ code: "REQUEST_TIMEOUT" });
  const second = thread.run("two");
  answerLate();
  expect(await second.started).toBe("t2");
  expect(sent(server.received)).toEqual(["turn/start", "turn/start"]);
  // No late result is waited for any more, and none counts as a pending request.
  expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
  await client.close();
});

it("closing the client while a timed-out turn/start may still be answered leaves no timer behind", async () => {
  const { server, client } = await connect({}, { requestTimeoutMs: 20 });
  const thread = await client.startThread();
  server.respond("turn/start", () => new Promise(() => {}));
  const timersBefore = process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
  await expect(thread.run("one").completed).rejects.toMatchObject({ code: "REQUEST_TIMEOUT" });
  await client.close();
  expect(process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length).toBe(timersBefore);
});
