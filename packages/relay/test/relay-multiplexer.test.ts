// The multiplexer against the in-memory FakeAppServer: per-connection initialize, id rewriting,
// thread ownership (requests refused, notifications routed), server requests to the owner or
// declined, limits.
import { describe, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { type FakePeer, fakePeer, tick } from "./support/fake-peer.js";
import { RelayCloseCode, RelayErrorCode, RelayMultiplexer, type RelayMultiplexerOptions } from "../src/index.js";

async function setup(options: RelayMultiplexerOptions = {}) {
  const server = new FakeAppServer();
  const mux = await RelayMultiplexer.start(server.transport, options);
  const open = async () => {
    const peer = fakePeer();
    const connection = mux.attach(peer);
    connection.receive({ id: 0, method: "initialize", params: { clientInfo: { name: "page", version: "0" } } });
    connection.receive({ method: "initialized" });
    return { peer, connection };
  };
  return { server, mux, open };
}

const answerTo = (peer: FakePeer, id: number | string) => peer.sent.find((message) => message.id === id && message.method === undefined);

describe("RelayMultiplexer", () => {
  it("initializes the app-server once and answers each connection's initialize from it", async () => {
    const { server, open } = await setup();
    const a = await open();
    const b = await open();
    expect(server.received.filter((message) => "method" in message && message.method === "initialize")).toHaveLength(1);
    expect(server.received.filter((message) => "method" in message && message.method === "initialized")).toHaveLength(1);
    expect(answerTo(a.peer, 0)?.result.userAgent).toMatch(/^fake-app-server\//);
    expect(answerTo(b.peer, 0)?.result).toEqual(answerTo(a.peer, 0)?.result);
  });

  it("refuses requests before initialize and a second initialize, as codex does", async () => {
    const { mux } = await setup();
    const peer = fakePeer();
    const connection = mux.attach(peer);
    connection.receive({ id: 1, method: "thread/start", params: {} });
    expect(answerTo(peer, 1)?.error).toEqual({ code: RelayErrorCode.invalidRequest, message: "Not initialized" });
    connection.receive({ id: 2, method: "initialize", params: {} });
    connection.receive({ id: 3, method: "initialize", params: {} });
    expect(answerTo(peer, 3)?.error.message).toBe("Already initialized");
  });

  it("rewrites request ids: two connections using the same id each get their own answer, with their id", async () => {
    const { server, open } = await setup();
    const a = await open();
    const b = await open();
    a.connection.receive({ id: 7, method: "thread/start", params: {} });
    b.connection.receive({ id: 7, method: "thread/start", params: {} });
    await tick();
    const upstreamIds = server.received
      .filter((message) => "method" in message && message.method === "thread/start")
      .map((message) => (message as { id: unknown }).id);
    expect(new Set(upstreamIds).size).toBe(2);
    expect(answerTo(a.peer, 7)?.result.thread.id).toBe("thread-1");
    expect(answerTo(b.peer, 7)?.result.thread.id).toBe("thread-2");
  });

  it("a connection sees only its threads: another's thread id is refused, notifications go to the owner, thread-less ones to all", async () => {
    const { server, mux, open } = await setup();
    const a = await open();
    const b = await open();
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    const before = server.received.length;
    b.connection.receive({ id: 1, method: "turn/start", params: { threadId: "thread-1", input: [] } });
    b.connection.receive({ id: 2, method: "thread/resume", params: { threadId: "thread-1" } });
    expect(answerTo(b.peer, 1)?.error.code).toBe(RelayErrorCode.threadNotOwned);
    expect(answerTo(b.peer, 2)?.error.code).toBe(RelayErrorCode.threadNotOwned);
    // A thread nobody owns: only resume/fork/read may name it.
    b.connection.receive({ id: 3, method: "turn/start", params: { threadId: "thread-on-disk", input: [] } });
    expect(answerTo(b.peer, 3)?.error.code).toBe(RelayErrorCode.threadNotOwned);
    expect(server.received.length).toBe(before);

    server.notify("item/agentMessage/delta", { threadId: "thread-1", turnId: "t", itemId: "i", delta: "x" });
    server.notify("account/rateLimits/updated", { rateLimits: {} });
    await tick();
    expect(a.peer.sent.map((message) => message.method).filter(Boolean)).toEqual(["item/agentMessage/delta", "account/rateLimits/updated"]);
    expect(b.peer.sent.map((message) => message.method).filter(Boolean)).toEqual(["account/rateLimits/updated"]);
    expect(mux.threadsOf(a.connection)).toEqual(["thread-1"]);
  });

  it("thread/unsubscribe gives the thread up: after it, the connection must resume it again", async () => {
    const { server, mux, open } = await setup();
    server.respond("thread/unsubscribe", () => ({ result: { status: "unsubscribed" } }));
    const a = await open();
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    a.connection.receive({ id: 2, method: "thread/unsubscribe", params: { threadId: "thread-1" } });
    await tick();
    expect(mux.threadsOf(a.connection)).toEqual([]);
    a.connection.receive({ id: 3, method: "turn/start", params: { threadId: "thread-1", input: [] } });
    expect(answerTo(a.peer, 3)?.error.code).toBe(RelayErrorCode.threadNotOwned);
  });

  it("a thread's notifications that arrive before its thread/start answer are kept and delivered to the new owner first", async () => {
    const { server, open } = await setup();
    server.respond("thread/start", () => {
      server.notify("thread/started", { thread: { id: "early" } });
      return { result: { thread: { id: "early" } } };
    });
    const a = await open();
    const b = await open();
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    expect(a.peer.sent.slice(-2).map((message) => message.method ?? `answer ${message.id}`)).toEqual(["thread/started", "answer 1"]);
    expect(b.peer.sent.some((message) => message.method === "thread/started")).toBe(false);
  });

  it("server requests go to the thread's owner and its answer goes back; once the owner is gone they get the decline default", async () => {
    const { server, open } = await setup();
    const a = await open();
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    const params = { threadId: "thread-1", turnId: "t", itemId: "i", command: "ls", availableDecisions: ["accept", "decline"] };
    const first = server.request("item/commandExecution/requestApproval", params);
    await tick();
    const forwarded = a.peer.sent.find((message) => message.method === "item/commandExecution/requestApproval")!;
    a.connection.receive({ id: forwarded.id, result: { decision: "accept" } });
    expect(await first).toEqual({ result: { decision: "accept" } });

    // One pending when the owner leaves, one after: both declined by the relay.
    const pending = server.request("item/commandExecution/requestApproval", params);
    await tick();
    a.connection.detach();
    expect(await pending).toEqual({ result: { decision: "decline" } });
    expect(await server.request("item/fileChange/requestApproval", { threadId: "thread-1" })).toEqual({ result: { decision: "decline" } });
    expect(await server.request("item/tool/requestUserInput", { threadId: "thread-1" })).toEqual({ result: { answers: {} } });
    expect(await server.request("item/tool/call", { threadId: "thread-1" })).toMatchObject({ error: { code: -32601 } });
  });

  it("an answer to a server request another connection was asked is dropped", async () => {
    const { server, open } = await setup();
    const a = await open();
    const b = await open();
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    const answered = server.request("item/fileChange/requestApproval", { threadId: "thread-1" });
    await tick();
    const forwarded = a.peer.sent.find((message) => message.method === "item/fileChange/requestApproval")!;
    b.connection.receive({ id: forwarded.id, result: { decision: "accept" } });
    await tick();
    expect(server.pendingServerRequests).toBe(1);
    a.connection.receive({ id: forwarded.id, result: { decision: "decline" } });
    expect(await answered).toEqual({ result: { decision: "decline" } });
  });

  it("honours each connection's optOutNotificationMethods", async () => {
    const { server, mux } = await setup();
    const peer = fakePeer();
    const connection = mux.attach(peer);
    connection.receive({ id: 0, method: "initialize", params: { capabilities: { optOutNotificationMethods: ["account/rateLimits/updated"] } } });
    server.notify("account/rateLimits/updated", {});
    server.notify("skills/changed", {});
    await tick();
    expect(peer.sent.map((message) => message.method).filter(Boolean)).toEqual(["skills/changed"]);
  });

  it("closes a connection that sends faster than its rate limit (1008), forwarding nothing more", async () => {
    const { server, open } = await setup({ rateLimit: { perSecond: 1, burst: 3 } });
    const a = await open(); // initialize and initialized: 2 of the 3
    const before = server.received.length;
    a.connection.receive({ id: 1, method: "thread/list", params: {} });
    a.connection.receive({ id: 2, method: "thread/list", params: {} });
    expect(a.peer.closedWith).toEqual({ code: RelayCloseCode.rateLimited, reason: "rate limit exceeded" });
    await tick();
    expect(server.received.length).toBe(before + 1);
  });

  it("closes every connection when the app-server goes away, and new ones at once", async () => {
    const { server, mux, open } = await setup();
    const a = await open();
    server.crash();
    await tick();
    expect(a.peer.closedWith?.code).toBe(RelayCloseCode.upstreamClosed);
    const late = fakePeer();
    mux.attach(late);
    expect(late.closedWith?.code).toBe(RelayCloseCode.upstreamClosed);
    await expect(mux.ended).resolves.toBeUndefined();
  });
});
