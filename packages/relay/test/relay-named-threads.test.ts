// Review 6 F9: requests that name threads in fields other than `threadId` — `project/import`
// `threads`, `thread/section/move` `beforeThreadId`, `thread/list`'s filters — are checked as
// `threadId` is: another connection's thread gets -32003 and nothing reaches the app-server.
import { expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { type FakePeer, openPage, tick } from "./support/fake-peer.js";
import { RelayErrorCode, RelayMultiplexer } from "../src/index.js";

const A_THREAD = "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
const STORED = "0195a1b2-c3d4-7e5f-8a9b-00000000beef";

async function setup() {
  const server = new FakeAppServer();
  server.respond("thread/start", () => ({ result: { thread: { id: A_THREAD } } }));
  for (const method of ["project/import", "thread/section/move", "thread/list"]) server.respond(method, () => ({ result: { data: [] } }));
  const mux = await RelayMultiplexer.start(server.transport);
  const a = openPage(mux);
  const b = openPage(mux);
  a.connection.receive({ id: 1, method: "thread/start", params: {} });
  await tick();
  const forwarded = (method: string) => server.received.filter((message) => "method" in message && message.method === method).length;
  const answer = (peer: FakePeer, id: number) => peer.sent.find((message) => message.id === id);
  return { a, b, forwarded, answer };
}

const importing = (threads: string[]) => ({ idempotencyKey: "k", name: "p", roots: [{ path: "/w" }], threads });

it("another connection's thread, however spelt, in project/import threads, thread/section/move beforeThreadId or a thread/list filter: -32003, not forwarded", async () => {
  const { b, forwarded, answer } = await setup();
  const requests: [string, unknown][] = [
    ["project/import", importing([STORED, A_THREAD])],
    ["project/import", importing([A_THREAD.toUpperCase()])],
    ["thread/section/move", { threadId: undefined, sectionId: "s", beforeThreadId: A_THREAD }],
    ["thread/list", { parentThreadId: A_THREAD }],
    ["thread/list", { ancestorThreadId: `urn:uuid:${A_THREAD}` }],
    ["thread/list", { attachedToThreadId: A_THREAD }],
    ["thread/list", { excludedThreadIds: [A_THREAD] }],
  ];
  requests.forEach(([method, params], index) => b.connection.receive({ id: 10 + index, method, params }));
  await tick();
  expect(requests.map((_, index) => answer(b.peer, 10 + index)?.error?.code)).toEqual(requests.map(() => RelayErrorCode.threadNotOwned));
  expect([forwarded("project/import"), forwarded("thread/section/move"), forwarded("thread/list")]).toEqual([0, 0, 0]);
});

it("the caller's own threads pass; a thread nobody has open passes a thread/list filter but not project/import", async () => {
  const { a, b, forwarded, answer } = await setup();
  a.connection.receive({ id: 2, method: "project/import", params: importing([A_THREAD]) });
  a.connection.receive({ id: 3, method: "thread/list", params: { parentThreadId: A_THREAD, excludedThreadIds: [A_THREAD] } });
  b.connection.receive({ id: 4, method: "thread/list", params: { parentThreadId: STORED } });
  b.connection.receive({ id: 5, method: "project/import", params: importing([STORED]) });
  await tick();
  expect(answer(a.peer, 2)?.result).toBeDefined();
  expect(answer(a.peer, 3)?.result).toBeDefined();
  expect(answer(b.peer, 4)?.result).toBeDefined();
  expect(answer(b.peer, 5)?.error?.code).toBe(RelayErrorCode.threadNotOwned);
  expect([forwarded("project/import"), forwarded("thread/list")]).toEqual([1, 2]);
});
