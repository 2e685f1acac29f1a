// Review 6 F1: a thread whose owner left is unsubscribed upstream once codex has answered the
// interrupt of its turn. A page's `thread/resume` of that thread may already be on its way to codex
// then; codex handles the resume, then the relay's unsubscribe, and the page that now owns the
// thread gets none of its events (against the real codex: its next turn streams nothing). Forced
// here on the FakeAppServer by holding codex's answers to the interrupt and the resume.
import { expect, it } from "vitest";
import { FakeAppServer, type FakeReply } from "@codex-rpc/core/testing";
import { openPage, tick } from "./support/fake-peer.js";
import { RelayMultiplexer } from "../src/index.js";

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Page A starts a thread and a turn that runs until interrupted, then leaves; page B resumes the thread while the relay's interrupt waits for codex's answer. */
async function ownerLeavesWhileAnotherResumes() {
  const server = new FakeAppServer({ turns: [{ hold: true }] });
  const interruptAnswer = deferred<FakeReply>();
  const resumeAnswer = deferred<FakeReply>();
  server.respond("turn/interrupt", () => interruptAnswer.promise);
  server.respond("thread/resume", () => resumeAnswer.promise);
  server.respond("thread/unsubscribe", () => ({ result: { status: "unsubscribed" } }));
  const mux = await RelayMultiplexer.start(server.transport);
  const a = openPage(mux);
  a.connection.receive({ id: 1, method: "thread/start", params: {} });
  await tick();
  a.connection.receive({ id: 2, method: "turn/start", params: { threadId: "thread-1", input: [] } });
  await tick();
  await tick();
  a.connection.detach(); // the tab goes away while its turn runs: the relay sends turn/interrupt
  const b = openPage(mux);
  b.connection.receive({ id: 1, method: "thread/resume", params: { threadId: "thread-1" } }); // forwarded: nobody owns it now
  await tick();
  interruptAnswer.resolve({ result: {} }); // codex answers the interrupt before the resume, and ends the turn
  server.notify("turn/completed", { threadId: "thread-1", turn: { id: "turn-1", status: "interrupted", items: [], error: null } });
  await tick();
  const order = () =>
    server.received
      .filter((message) => "method" in message && ["turn/interrupt", "thread/resume", "thread/unsubscribe"].includes(message.method))
      .map((message) => (message as { method: string }).method);
  return { server, mux, b, resumeAnswer, order };
}

it("a page resuming a thread whose owner just left keeps it: no thread/unsubscribe after its resume", async () => {
  const { mux, b, resumeAnswer, order } = await ownerLeavesWhileAnotherResumes();
  resumeAnswer.resolve({ result: { thread: { id: "thread-1" } } });
  await tick();
  expect(mux.ownership(b.connection, "thread-1")).toBe("mine");
  expect(order()).toEqual(["turn/interrupt", "thread/resume"]);
});

it("the resume fails and nobody owns the thread: it is unsubscribed then, as it would have been", async () => {
  const { mux, b, resumeAnswer, order } = await ownerLeavesWhileAnotherResumes();
  expect(order()).toEqual(["turn/interrupt", "thread/resume"]);
  resumeAnswer.resolve({ error: { code: -32600, message: "resume failed" } });
  await tick();
  expect(b.peer.sent.find((message) => message.id === 1)?.error?.message).toBe("resume failed");
  expect(mux.ownership(b.connection, "thread-1")).toBe("none");
  expect(order()).toEqual(["turn/interrupt", "thread/resume", "thread/unsubscribe"]);
});

it("the resuming page leaves before its resume is answered: the thread is unsubscribed once it is", async () => {
  const { b, resumeAnswer, order } = await ownerLeavesWhileAnotherResumes();
  b.connection.detach();
  resumeAnswer.resolve({ result: { thread: { id: "thread-1" } } });
  await tick();
  expect(order()).toEqual(["turn/interrupt", "thread/resume", "thread/unsubscribe"]);
});
