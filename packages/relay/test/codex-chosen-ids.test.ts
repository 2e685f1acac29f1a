// Ids codex chose, in fields named like those pages choose, pass the relay unchanged: a stranger's
// review found it rewriting accountSession/switch's sessionId (from accountSession/list) and
// thread/backgroundTerminals/terminate's processId (from its listing) as if a page had chosen them.
import { expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { fakePeer, tick } from "./support/fake-peer.js";
import { RelayMultiplexer } from "../src/index.js";

async function setup() {
  const server = new FakeAppServer();
  const mux = await RelayMultiplexer.start(server.transport, {});
  const peer = fakePeer();
  const connection = mux.attach(peer);
  connection.receive({ id: 0, method: "initialize", params: { clientInfo: { name: "page", version: "0" } } });
  connection.receive({ method: "initialized" });
  return { server, peer, connection };
}
const sent = (server: FakeAppServer, method: string) =>
  (server.received.find((m) => "method" in m && m.method === method) as { params: Record<string, unknown> } | undefined)?.params;

it("accountSession/switch reaches codex with the sessionId accountSession/list gave", async () => {
  const { server, peer, connection } = await setup();
  server.respond("accountSession/list", () => ({ result: { activeSessionId: "sess-A", sessions: [{ sessionId: "sess-B" }] } }));
  server.respond("accountSession/switch", (params) =>
    (params as { sessionId: string }).sessionId === "sess-B"
      ? { result: { activeSessionId: "sess-B", sessions: [] } }
      : { error: { code: -32600, message: `unknown session ${(params as { sessionId: string }).sessionId}` } },
  );
  connection.receive({ id: 1, method: "accountSession/list", params: {} });
  await tick();
  const listed = peer.sent.find((m) => m.id === 1)?.result as { sessions: { sessionId: string }[] };
  connection.receive({ id: 2, method: "accountSession/switch", params: { sessionId: listed.sessions[0]!.sessionId, accountId: "acc" } });
  await tick();
  expect(sent(server, "accountSession/switch")?.sessionId).toBe("sess-B");
  expect(peer.sent.find((m) => m.id === 2)?.error).toBeUndefined();
});

it("thread/backgroundTerminals/terminate reaches codex with the processId the listing gave", async () => {
  const { server, peer, connection } = await setup();
  connection.receive({ id: 1, method: "thread/start", params: {} });
  await tick();
  const threadId = (peer.sent.find((m) => m.id === 1)!.result as { thread: { id: string } }).thread.id;
  server.respond("thread/backgroundTerminals/list", () => ({ result: { data: [{ processId: "1234", command: "sleep 100" }], nextCursor: null } }));
  server.respond("thread/backgroundTerminals/terminate", (params) => ({ result: { terminated: (params as { processId: string }).processId === "1234" } }));
  connection.receive({ id: 2, method: "thread/backgroundTerminals/list", params: { threadId } });
  await tick();
  const processId = (peer.sent.find((m) => m.id === 2)!.result as { data: { processId: string }[] }).data[0]!.processId;
  connection.receive({ id: 3, method: "thread/backgroundTerminals/terminate", params: { threadId, processId } });
  await tick();
  expect(sent(server, "thread/backgroundTerminals/terminate")?.processId).toBe("1234");
  expect(peer.sent.find((m) => m.id === 3)?.result).toEqual({ terminated: true });
});
