// Sub-agent threads named in a thread's items (see src/sub-agent-threads.ts) become the owner's,
// with a fake upstream: never one another connection has, and their notifications follow.
import { expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { openPage, tick } from "./support/fake-peer.js";
import { RelayMultiplexer } from "../src/index.js";

const A_THREAD = "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
const B_THREAD = "0195a1b2-c3d4-7e5f-8a9b-00000000000b";
const CHILD = "0195a1b2-c3d4-7e5f-8a9b-0000000000cc";

it("a collabAgentToolCall's receiverThreadIds become the page's unless another page has them; subAgentActivity's agentThreadId too", async () => {
  const server = new FakeAppServer();
  let next = [A_THREAD, B_THREAD];
  server.respond("thread/start", () => ({ result: { thread: { id: next.shift() } } }));
  const mux = await RelayMultiplexer.start(server.transport);
  const a = openPage(mux);
  const b = openPage(mux);
  a.connection.receive({ id: 1, method: "thread/start", params: {} });
  await tick();
  b.connection.receive({ id: 1, method: "thread/start", params: {} });
  await tick();
  const item = {
    type: "collabAgentToolCall",
    id: "c1",
    tool: "spawnAgent",
    senderThreadId: A_THREAD,
    receiverThreadIds: [CHILD.toUpperCase(), B_THREAD],
    agentsStates: {},
  };
  server.notify("item/completed", { threadId: A_THREAD, turnId: "t", item });
  await tick();
  expect(mux.threadsOf(a.connection).sort()).toEqual([A_THREAD, CHILD].sort());
  expect(mux.threadsOf(b.connection)).toEqual([B_THREAD]);
  server.notify("turn/started", { threadId: CHILD, turn: { id: "t2", items: [], status: "inProgress", error: null } });
  await tick();
  expect(a.peer.sent.some((message) => message.method === "turn/started" && message.params.threadId === CHILD)).toBe(true);
  expect(b.peer.sent.some((message) => message.params?.threadId === CHILD)).toBe(false);

  const other = "0195a1b2-c3d4-7e5f-8a9b-0000000000dd";
  server.notify("item/started", {
    threadId: A_THREAD,
    turnId: "t",
    item: { type: "subAgentActivity", id: "s", agentPath: "x", agentThreadId: other, kind: "spawned" },
  });
  await tick();
  expect(mux.threadsOf(a.connection)).toContain(other);
  next = [];
});
