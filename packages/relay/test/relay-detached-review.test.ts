// Review 6 F7: `review/start` with `delivery: "detached"` (codex 0.160.0) runs the review on a new
// thread, named in the answer's `reviewThreadId`. That thread is the caller's, as a started thread
// is: its notifications (those codex sent before the answer too) reach the caller, and another page
// may not read or take it.
import { expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { type FakePeer, openPage, tick } from "./support/fake-peer.js";
import { RelayErrorCode, RelayMultiplexer } from "../src/index.js";

it("a detached review's thread is the caller's: its notifications, also those sent before the answer, reach it; another page gets -32003", async () => {
  const server = new FakeAppServer();
  server.respond("review/start", (params) => {
    // As codex 0.160.0: the review thread's first notifications come before the answer.
    server.notify("thread/started", { thread: { id: "review-1" } });
    server.notify("turn/started", { threadId: "review-1", turn: { id: "rt-1", status: "inProgress", items: [], error: null } });
    const { threadId } = params as { threadId: string };
    return { result: { turn: { id: "rt-1", status: "inProgress", items: [], error: null }, reviewThreadId: threadId === "thread-1" ? "review-1" : threadId } };
  });
  const mux = await RelayMultiplexer.start(server.transport);
  const a = openPage(mux);
  const b = openPage(mux);
  a.connection.receive({ id: 1, method: "thread/start", params: {} });
  await tick();
  a.connection.receive({ id: 2, method: "review/start", params: { threadId: "thread-1", target: { type: "uncommittedChanges" }, delivery: "detached" } });
  await tick();
  server.notify("item/agentMessage/delta", { threadId: "review-1", turnId: "rt-1", itemId: "i", delta: "Looks fine." });
  await tick();
  expect(mux.threadsOf(a.connection).sort()).toEqual(["review-1", "thread-1"]);
  const reviewMethods = (peer: FakePeer) =>
    peer.sent.filter((message) => message.params?.threadId === "review-1" || message.params?.thread?.id === "review-1").map((message) => message.method);
  expect(reviewMethods(a.peer)).toEqual(["thread/started", "turn/started", "item/agentMessage/delta"]);
  expect(reviewMethods(b.peer)).toEqual([]);
  b.connection.receive({ id: 1, method: "thread/read", params: { threadId: "review-1" } });
  b.connection.receive({ id: 2, method: "thread/resume", params: { threadId: "review-1" } });
  await tick();
  expect(b.peer.sent.filter((message) => message.id === 1 || message.id === 2).map((message) => message.error?.code)).toEqual([
    RelayErrorCode.threadNotOwned,
    RelayErrorCode.threadNotOwned,
  ]);
});
