// Reconnecting, the paths the real server cannot easily produce (fake servers): giving up after
// the bound, close() while reconnecting, a new connection that drops during its own handshake,
// and a thread that cannot be resumed. The main path runs against the real server in
// packages/websocket/test/reconnect.real-codex.test.ts.
import { firstValueFrom, toArray } from "rxjs";
import { expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { CodexClient, type ClientState, type Reconnection, type Transport } from "@codex-rpc/core";

const fast = { initialDelayMs: 1, maxDelayMs: 5 };

/** A factory that hands out a new fake server's transport per call; after `failFromNowOn()` calls throw. */
function serversFactory(setup: (server: FakeAppServer, index: number) => void = () => {}) {
  const servers: FakeAppServer[] = [];
  let failing = false;
  let calls = 0;
  const factory = async (): Promise<Transport> => {
    calls++;
    if (failing) throw new Error("connect ECONNREFUSED");
    const server = new FakeAppServer();
    setup(server, servers.length);
    servers.push(server);
    return server.transport;
  };
  return { servers, factory, failFromNowOn: () => (failing = true), calls: () => calls };
}

function recordStates(client: CodexClient): ClientState[] {
  const states: ClientState[] = [];
  client.state$.subscribe((state) => states.push(state));
  return states;
}

it("gives up after maxAttempts: closed for good, with how the last attempt failed", async () => {
  const { servers, factory, failFromNowOn, calls } = serversFactory();
  const client = await CodexClient.connect(factory, { reconnect: { ...fast, maxAttempts: 3 } });
  const states = recordStates(client);
  const reconnections = firstValueFrom(client.reconnections$.pipe(toArray()));
  failFromNowOn();
  servers[0]!.crash();
  const last = await client.closed;
  expect(last).toMatchObject({ reason: "error" });
  expect(String((last.error as Error).message)).toContain("ECONNREFUSED");
  expect(await reconnections).toEqual([]);
  expect(states).toEqual(["open", "reconnecting", "closed"]);
  expect(calls()).toBe(1 + 3);
});

it("close() while reconnecting stops trying at once", async () => {
  const { servers, factory, calls } = serversFactory();
  const client = await CodexClient.connect(factory, { reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000, maxAttempts: 5 } });
  servers[0]!.crash();
  while (client.state !== "reconnecting") await new Promise((resolve) => setTimeout(resolve, 1));
  const started = Date.now();
  await client.close();
  expect(Date.now() - started).toBeLessThan(1_000); // did not sit out the 60 s backoff
  expect(client.state).toBe("closed");
  expect(calls()).toBe(1);
});

it("a new connection that drops during its handshake counts as a failed attempt; the next one is used", async () => {
  const { servers, factory } = serversFactory((server, index) => {
    // The second server dies as soon as it is asked to initialize.
    if (index === 1) server.respond("initialize", () => (server.crash(), new Promise(() => {})));
    server.respond("thread/resume", (params) => ({ result: { thread: { id: (params as { threadId: string }).threadId, turns: [] } } }));
  });
  const client = await CodexClient.connect(factory, { reconnect: fast });
  const thread = await client.startThread();
  const reconnected = firstValueFrom(client.reconnections$);
  servers[0]!.crash();
  const reconnection: Reconnection = await reconnected;
  expect(servers).toHaveLength(3);
  expect(reconnection.attempts).toBe(2);
  expect(reconnection.cause).toMatchObject({ reason: "exit", signal: "SIGKILL" });
  expect(reconnection.threads).toEqual([{ threadId: thread.id, resumed: true, thread: expect.objectContaining({ id: thread.id }) }]);
  const resumes = servers[2]!.received.filter((message) => "method" in message && message.method === "thread/resume");
  expect(resumes).toEqual([expect.objectContaining({ params: { threadId: thread.id, approvalPolicy: "untrusted" } })]);
  expect(client.state).toBe("open");
  await client.close();
});

it("a thread the new server cannot resume is reported, not fatal", async () => {
  const { servers, factory } = serversFactory((server) =>
    server.respond("thread/resume", () => ({ error: { code: -32600, message: "no rollout found for thread" } })),
  );
  const client = await CodexClient.connect(factory, { reconnect: fast });
  const thread = await client.startThread();
  const reconnected = firstValueFrom(client.reconnections$);
  servers[0]!.crash();
  const { threads } = await reconnected;
  expect(threads).toEqual([
    { threadId: thread.id, resumed: false, error: expect.objectContaining({ code: "SERVER_ERROR", rpcMessage: "no rollout found for thread" }) },
  ]);
  expect(client.state).toBe("open");
  await client.close();
});

it("does not resume threads that were closed, archived, deleted or unsubscribed", async () => {
  const { servers, factory } = serversFactory((server) => {
    server.respond("thread/resume", (params) => ({ result: { thread: { id: (params as { threadId: string }).threadId, turns: [] } } }));
    server.respond("thread/unsubscribe", () => ({ result: { status: "unsubscribed" } }));
  });
  const client = await CodexClient.connect(factory, { reconnect: fast });
  const threads = await Promise.all(Array.from({ length: 5 }, () => client.startThread()));
  const [closed, archived, deleted, unsubscribed, kept] = threads.map((thread) => thread.id);
  servers[0]!.notify("thread/closed", { threadId: closed });
  servers[0]!.notify("thread/archived", { threadId: archived });
  servers[0]!.notify("thread/deleted", { threadId: deleted });
  await client.request("thread/unsubscribe", { threadId: unsubscribed! });
  const reconnected = firstValueFrom(client.reconnections$);
  servers[0]!.crash();
  expect((await reconnected).threads.map((thread) => thread.threadId)).toEqual([kept]);
  await client.close();
});

it("`reconnect` with a transport instead of a factory is a usage error", async () => {
  const server = new FakeAppServer();
  await expect(CodexClient.connect(server.transport, { reconnect: true })).rejects.toThrow(/needs a function that opens a new transport/);
  await server.transport.close();
});
