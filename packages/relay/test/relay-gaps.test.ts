// The relay's gaps closed, against the in-memory FakeAppServer: a page that leaves has its running
// turn interrupted and its threads unsubscribed upstream; list results hold only what the page may
// see; a connection-count limit; what a connection may send before its app-server is ready.
import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { RelayCloseCode, RelayMultiplexer, type RelayHandle, type RelayPeer, startRelay } from "../src/index.js";
import { StartupQueue } from "../src/startup-queue.js";
import { closeCode, tryUpgrade } from "./support/relay-clients.js";

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

function page(mux: RelayMultiplexer) {
  const sent: Record<string, any>[] = [];
  const peer: RelayPeer = { send: (message: JsonRpcMessage) => void sent.push(message as Record<string, any>), close: () => {} };
  const connection = mux.attach(peer);
  connection.receive({ id: 0, method: "initialize", params: { clientInfo: { name: "page", version: "0" } } });
  const answer = (id: number) => sent.find((message) => message.id === id && message.method === undefined);
  return { connection, sent, answer };
}

const upstream = (server: FakeAppServer, method: string) =>
  server.received.filter((message) => "method" in message && message.method === method).map((message) => (message as { params?: unknown }).params);

describe("a page that leaves", () => {
  it("has its running turn interrupted and its threads unsubscribed; a finished thread only unsubscribed", async () => {
    const server = new FakeAppServer({ turns: [{ hold: true }] });
    server.respond("thread/unsubscribe", () => ({ result: { status: "unsubscribed" } }));
    const log: string[] = [];
    const mux = await RelayMultiplexer.start(server.transport, { log: (line) => log.push(line) });
    const a = page(mux);
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    a.connection.receive({ id: 2, method: "thread/start", params: {} });
    await tick();
    a.connection.receive({ id: 3, method: "turn/start", params: { threadId: "thread-1", input: [] } });
    await tick(20);
    expect(a.sent.some((message) => message.method === "turn/started")).toBe(true);

    a.connection.detach();
    await tick(20);
    expect(upstream(server, "turn/interrupt")).toEqual([{ threadId: "thread-1", turnId: "turn-1" }]);
    // thread-2 at once; thread-1 once codex has answered the interrupt (so the turn's end is still seen).
    expect(upstream(server, "thread/unsubscribe")).toEqual([{ threadId: "thread-2" }, { threadId: "thread-1" }]);
    expect(log.some((line) => /interrupted turn turn-1 \(connection #1 left\): \{"result":\{\}\}/.test(line))).toBe(true);
    expect(log.filter((line) => line.includes("unsubscribed thread") && line.includes('"status":"unsubscribed"'))).toHaveLength(2);
    // Nothing of the leaver's reaches anyone.
    const b = page(mux);
    await tick();
    expect(b.sent.filter((message) => message.method !== undefined)).toEqual([]);
  });

  it("a turn that starts on a thread whose owner left is interrupted as it starts", async () => {
    const server = new FakeAppServer({ turns: [{ hold: true }] });
    const mux = await RelayMultiplexer.start(server.transport);
    const a = page(mux);
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    a.connection.receive({ id: 2, method: "turn/start", params: { threadId: "thread-1", input: [] } });
    a.connection.detach(); // before turn/started arrived
    await tick(20);
    expect(upstream(server, "turn/interrupt")).toEqual([{ threadId: "thread-1", turnId: "turn-1" }]);
  });

  it("the relay shutting down sends no cleanup (the app-server goes too)", async () => {
    const server = new FakeAppServer();
    const mux = await RelayMultiplexer.start(server.transport);
    const a = page(mux);
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    await mux.close();
    expect(upstream(server, "thread/unsubscribe")).toEqual([]);
  });
});

describe("lists", () => {
  it("thread/loaded/list holds only the connection's threads; thread/list drops those another connection has open", async () => {
    const server = new FakeAppServer();
    server.respond("thread/loaded/list", () => ({ result: { data: ["thread-1", "thread-2", "thread-on-disk"], nextCursor: "c2" } }));
    server.respond("thread/list", () => ({
      result: { data: [{ id: "thread-1" }, { id: "thread-2" }, { id: "thread-on-disk" }], nextCursor: null, backwardsCursor: null },
    }));
    const mux = await RelayMultiplexer.start(server.transport);
    const a = page(mux);
    const b = page(mux);
    a.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    b.connection.receive({ id: 1, method: "thread/start", params: {} });
    await tick();
    a.connection.receive({ id: 2, method: "thread/loaded/list", params: {} });
    a.connection.receive({ id: 3, method: "thread/list", params: {} });
    await tick();
    expect(a.answer(2)?.result).toEqual({ data: ["thread-1"], nextCursor: "c2" });
    expect(a.answer(3)?.result.data).toEqual([{ id: "thread-1" }, { id: "thread-on-disk" }]);
  });
});

describe("startRelay limits", () => {
  const relays: RelayHandle[] = [];
  afterEach(async () => {
    for (const relay of relays.splice(0)) await relay.close();
  });

  it("closes a connection over maxConnections with 1013 and a reason; a place frees when one leaves", async () => {
    const server = new FakeAppServer();
    const relay = await startRelay({ upstream: { transport: server.transport }, maxConnections: 2 });
    relays.push(relay);
    const sentBefore = relay.upstreamMessageCount;
    const open = async () => {
      const outcome = await tryUpgrade(relay.url, { token: relay.token });
      if (!("socket" in outcome)) throw new Error(`refused: ${outcome.status}`);
      return outcome.socket;
    };
    const first = await open();
    await open();
    const third = await open();
    const closed = await new Promise<{ code: number; reason: string }>((resolve) =>
      third.once("close", (code, reason) => resolve({ code, reason: String(reason) })),
    );
    expect(closed).toEqual({ code: RelayCloseCode.tooManyConnections, reason: "too many connections (the relay allows 2)" });
    first.close();
    await closeCode(first);
    await tick(20);
    const fourth = await open();
    expect(fourth.readyState).toBe(fourth.OPEN);
    expect(relay.upstreamMessageCount).toBe(sentBefore);
    fourth.close();
  });

  it("rejects a limit that is not a whole number above 0", async () => {
    await expect(startRelay({ upstream: { transport: new FakeAppServer().transport }, maxConnections: 0 })).rejects.toThrow(/maxConnections/);
    await expect(startRelay({ upstream: { transport: new FakeAppServer().transport }, maxQueuedWhileStarting: { messages: 1.5 } })).rejects.toThrow(
      /maxQueuedWhileStarting.messages/,
    );
  });
});

describe("StartupQueue", () => {
  it("admits up to its limits while the session starts, then everything", () => {
    const queue = new StartupQueue({ messages: 2, bytes: 100 });
    expect([queue.admit(10), queue.admit(10), queue.admit(10)]).toEqual([true, true, false]);
    const bytes = new StartupQueue({ messages: 10, bytes: 100 });
    expect([bytes.admit(60), bytes.admit(60)]).toEqual([true, false]);
    bytes.open();
    expect(bytes.admit(1_000_000)).toBe(true);
  });
});
