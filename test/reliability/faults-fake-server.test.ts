// Faults on the fake app-server (FakeAppServer), where each one can be placed exactly: the server
// dying before it answers `initialize`, with `thread/start` pending, mid-turn, and while an approval
// waits on the client; exiting 1 at start; stalling from the start and after the handshake; and
// overload storms — `-32001` N times for N = 0 … bound + 2, retried with backoff up to the bound,
// then ServerOverloadedError. Each ends in a typed error (a stall: at its timeout) with every
// promise settled, every stream ended and no unhandled rejection. RELIABILITY_LONG=1 raises the
// retry bound.
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import {
  CodexClient,
  ConnectionClosedError,
  RequestTimeoutError,
  ServerOverloadedError,
  type CodexClientOptions,
  type JsonRpcMessage,
  type Transport,
  type CodexTurn,
} from "@codex-rpc/core";
import { clientInternals, turnSubscriberCount } from "@codex-rpc/core/testing";
import { FakeAppServer, type FakeAppServerOptions, type FakeReply } from "@codex-rpc/testing";
import {
  FaultClock,
  Figures,
  neverAnsweredApproval,
  rejection,
  unhandledRejections,
  unsettledAfter,
  watchStreams,
  type Outcome,
} from "./support/fault-checks.js";
import { RELIABILITY_LONG, recordReliability } from "./support/reliability-report.js";

/** The fake dies in the same process: the typed error follows within microtasks. Printed, and held to a loose bound. */
const BOUND_MS = 1_000;
const STALL_TIMEOUT_MS = 100;
/** Retries after the first attempt before ServerOverloadedError. */
const RETRY_BOUND = RELIABILITY_LONG ? 10 : 4;
const RETRY_DELAYS = { initialDelayMs: 4, maxDelayMs: 32 };

const unhandled = unhandledRejections();
const figures = new Figures();
let cases = 0;
let faults = 0;
beforeAll(() => unhandled.install());
afterEach(async () => {
  // A rejection nobody handled is reported after the turn of the event loop it happened in.
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(unhandled.seen.splice(0).map(String), "unhandled rejections").toEqual([]);
});
afterAll(() => {
  unhandled.uninstall();
  console.log(`faults on the fake server:\n  ${figures.lines().join("\n  ")}`);
  recordReliability({ area: "faults: fake server", cases, faults });
});

/** A reply that never comes, and a promise that tells when the request arrived. */
function neverAnswered(server: FakeAppServer, method: string): Promise<void> {
  return new Promise((arrived) =>
    server.respond(method, () => {
      arrived();
      return new Promise<FakeReply>(() => {});
    }),
  );
}

async function connect(serverOptions: FakeAppServerOptions = {}, clientOptions: CodexClientOptions = {}) {
  const server = new FakeAppServer({ framing: "ndjson", ...serverOptions });
  const client = await CodexClient.connect(server.transport, clientOptions);
  return { server, client };
}

/** Every stream of a client, and of a turn when given. */
function clientStreams(client: CodexClient, turn?: CodexTurn) {
  return watchStreams({
    "client.state$": client.state$,
    "client.notifications()": client.notifications(),
    "client.unknownNotifications()": client.unknownNotifications(),
    "client.diagnostics$": client.diagnostics$,
    "client.reconnections$": client.reconnections$,
    ...(turn ? { "turn.events$": turn.events$, "turn.items$": turn.items$, "turn.text$": turn.text$ } : {}),
  });
}

/** The close error of a crashed fake: typed, with the signal and the stderr tail it gave. */
function expectCrashed(outcome: Outcome, what: string): ConnectionClosedError {
  const error = rejection(outcome);
  expect(error, what).toBeInstanceOf(ConnectionClosedError);
  expect((error as ConnectionClosedError).close, what).toMatchObject({ reason: "exit", signal: "SIGKILL", stderrTail: ["fake app-server crashed"] });
  return error as ConnectionClosedError;
}

function expectPromptly(fault: string, outcomes: Readonly<Record<string, Outcome>>): void {
  for (const [name, outcome] of Object.entries(outcomes)) {
    figures.add(`${fault}: ${name}`, outcome.afterMs);
    expect(outcome.afterMs, `${fault}: ${name}`).toBeLessThan(BOUND_MS);
  }
}

it("a crash before `initialize` is answered: connect rejects with CONNECTION_CLOSED and the signal", async () => {
  const server = new FakeAppServer({ framing: "ndjson" });
  const initializeArrived = neverAnswered(server, "initialize");
  const clock = new FaultClock();
  const connect = clock.track(CodexClient.connect(server.transport));
  await initializeArrived;
  clock.inject(() => server.crash());
  faults++;

  expect(await unsettledAfter({ connect, closed: server.transport.closed }, BOUND_MS)).toEqual([]);
  expect(expectCrashed(await connect, "connect")).toMatchObject({ method: "initialize" });
  expectPromptly("crash before initialize", { connect: await connect });
  cases++;
});

it("a crash with `thread/start` pending: the request rejects with the close, later requests at once", async () => {
  const { server, client } = await connect();
  const streams = clientStreams(client);
  const threadStartArrived = neverAnswered(server, "thread/start");
  const clock = new FaultClock();
  const startThread = clock.track(client.startThread());
  await threadStartArrived;
  clock.inject(() => server.crash());
  faults++;

  expect(await unsettledAfter({ startThread, closed: client.closed }, BOUND_MS)).toEqual([]);
  expect(expectCrashed(await startThread, "thread/start")).toMatchObject({ method: "thread/start" });
  expectPromptly("crash during thread/start", { "thread/start": await startThread });
  expect(client.state).toBe("closed");
  expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
  expect(streams.unended()).toEqual([]);
  await expect(client.request("thread/list", {})).rejects.toBeInstanceOf(ConnectionClosedError);
  cases++;
});

it("a crash mid-turn (after the first delta): the turn, its iterator and every stream end with the close", async () => {
  const { server, client } = await connect({ turns: [{ deltas: ["First ", "words"], hold: true }] });
  const thread = await client.startThread();
  const turn = thread.run("Say something, then wait.");
  const streams = clientStreams(client, turn);
  const clock = new FaultClock();
  const completed = clock.track(turn.completed);
  const iterated = clock.track(
    (async () => {
      for await (const _event of turn);
    })(),
  );
  expect(await new Promise<string>((resolve) => turn.text$.subscribe(resolve))).toBe("First ");
  clock.inject(() => server.crash());
  faults++;

  expect(await unsettledAfter({ completed, iterated, closed: client.closed }, BOUND_MS)).toEqual([]);
  expectCrashed(await completed, "turn.completed");
  expectCrashed(await iterated, "for await over the turn");
  expectPromptly("crash mid-turn", { "turn.completed": await completed, "for await": await iterated });
  expect(turnSubscriberCount(turn)).toBe(0);
  expect(clientInternals(client).threadListenerCount).toBe(0);
  expect(streams.unended()).toEqual([]);
  cases++;
});

it("a crash while an approval is pending: the handler's signal fires with the close, and the turn rejects", async () => {
  const clock = new FaultClock();
  const approval = neverAnsweredApproval(clock);
  const { server, client } = await connect({ turns: [{ hold: true }] }, { handlers: { "item/commandExecution/requestApproval": approval.handler } });
  const thread = await client.startThread();
  const turn = thread.run("Touch the file.");
  const streams = clientStreams(client, turn);
  const completed = clock.track(turn.completed);
  const turnId = await turn.started;
  void server.request("item/commandExecution/requestApproval", {
    threadId: thread.id,
    turnId,
    itemId: "i",
    startedAtMs: 0,
    command: "touch f",
    cwd: "/",
    reason: null,
  });
  await approval.arrived;
  expect(clientInternals(client).connection.pendingServerRequestCount).toBe(1);
  clock.inject(() => server.crash());
  faults++;

  expect(await unsettledAfter({ completed, signalFired: approval.signalFired(), closed: client.closed }, BOUND_MS)).toEqual([]);
  expectCrashed(await approval.signalFired(), "the approval handler's signal");
  expectCrashed(await completed, "turn.completed");
  expectPromptly("crash with an approval pending", { "handler signal": await approval.signalFired(), "turn.completed": await completed });
  expect(clientInternals(client).connection.pendingServerRequestCount).toBe(0);
  expect(streams.unended()).toEqual([]);
  cases++;
});

it("an exit 1 at start: connect rejects with the exit code and the stderr tail", async () => {
  const server = new FakeAppServer({ framing: "ndjson" });
  const initializeArrived = neverAnswered(server, "initialize");
  const clock = new FaultClock();
  const connect = clock.track(CodexClient.connect(server.transport));
  await initializeArrived;
  clock.inject(() => server.crash({ exitCode: 1, stderrTail: ["Error: CODEX_HOME points to a path that does not exist"] }));
  faults++;

  expect(await unsettledAfter({ connect }, BOUND_MS)).toEqual([]);
  const error = rejection(await connect);
  expect(error).toBeInstanceOf(ConnectionClosedError);
  expect((error as ConnectionClosedError).close).toMatchObject({
    reason: "exit",
    exitCode: 1,
    signal: null,
    stderrTail: ["Error: CODEX_HOME points to a path that does not exist"],
  });
  expect((error as Error).message).toContain("CODEX_HOME points to a path that does not exist");
  expectPromptly("exit 1 at start", { connect: await connect });
  cases++;
});

it("a server stalled from the start: connect rejects with REQUEST_TIMEOUT at the timeout, and the transport is closed", async () => {
  const server = new FakeAppServer({ framing: "ndjson", stalled: true });
  const clock = new FaultClock();
  clock.inject(() => undefined); // stalled already: the clock starts with the request
  faults++;
  const connect = clock.track(CodexClient.connect(server.transport, { requestTimeoutMs: STALL_TIMEOUT_MS }));

  expect(await unsettledAfter({ connect, closed: server.transport.closed }, STALL_TIMEOUT_MS + BOUND_MS)).toEqual([]);
  const outcome = await connect;
  expect(rejection(outcome)).toBeInstanceOf(RequestTimeoutError);
  expect(rejection(outcome)).toMatchObject({ code: "REQUEST_TIMEOUT", method: "initialize", timeoutMs: STALL_TIMEOUT_MS });
  expect(outcome.afterMs).toBeGreaterThanOrEqual(STALL_TIMEOUT_MS - 1);
  expect(outcome.afterMs).toBeLessThan(STALL_TIMEOUT_MS + BOUND_MS);
  figures.add(`stalled from the start: connect with a ${STALL_TIMEOUT_MS} ms timeout`, outcome.afterMs);
  expect(await server.transport.closed).toMatchObject({ reason: "closed" });
  cases++;
});

it("a server that stalls after the handshake: the request times out at its timeout; close() then ends everything", async () => {
  const { server, client } = await connect();
  const streams = clientStreams(client);
  const listArrived = neverAnswered(server, "thread/list");
  const clock = new FaultClock();
  clock.inject(() => undefined); // the stall is the reply that never comes
  faults++;
  const request = clock.track(client.request("thread/list", {}, { timeoutMs: STALL_TIMEOUT_MS }));
  await listArrived;

  expect(await unsettledAfter({ request }, STALL_TIMEOUT_MS + BOUND_MS)).toEqual([]);
  const outcome = await request;
  expect(rejection(outcome)).toMatchObject({ code: "REQUEST_TIMEOUT", method: "thread/list", timeoutMs: STALL_TIMEOUT_MS });
  expect(outcome.afterMs).toBeGreaterThanOrEqual(STALL_TIMEOUT_MS - 1);
  figures.add(`stalled after the handshake: request with a ${STALL_TIMEOUT_MS} ms timeout`, outcome.afterMs);
  expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
  expect(client.state).toBe("open");

  expect(await client.close()).toMatchObject({ reason: "closed" });
  expect(streams.unended()).toEqual([]);
  cases++;
});

it(`an overload storm (-32001 N times, N = 0 … ${RETRY_BOUND + 2}) is retried with backoff up to ${RETRY_BOUND} retries, then ServerOverloadedError`, async () => {
  const seen: string[] = [];
  for (let storm = 0; storm <= RETRY_BOUND + 2; storm++) {
    const server = new FakeAppServer({ framing: "ndjson", overload: { "thread/start": storm } });
    const sends = timedSends(server.transport, "thread/start");
    const client = await CodexClient.connect(sends.transport, { overloadRetry: { maxRetries: RETRY_BOUND, ...RETRY_DELAYS } });
    const outcome = await new FaultClock().track(client.startThread());
    const attempts = server.received.filter((message) => "method" in message && message.method === "thread/start").length;
    faults += Math.min(storm, RETRY_BOUND + 1);

    if (storm <= RETRY_BOUND) {
      expect(outcome, `storm of ${storm}`).toMatchObject({ settled: "resolved", value: { id: expect.any(String) } });
      expect(attempts, `storm of ${storm}`).toBe(storm + 1);
    } else {
      const error = rejection(outcome);
      expect(error, `storm of ${storm}`).toBeInstanceOf(ServerOverloadedError);
      expect(error).toMatchObject({ code: "SERVER_OVERLOADED", rpcCode: -32001, method: "thread/start", attempts: RETRY_BOUND + 1 });
      expect(attempts, `storm of ${storm}`).toBe(RETRY_BOUND + 1);
    }
    // Equal jitter: the wait before retry k is at least half of min(max, initial·2^(k-1)).
    sends.times.slice(1).forEach((at, k) => {
      const floor = Math.min(RETRY_DELAYS.maxDelayMs, RETRY_DELAYS.initialDelayMs * 2 ** k) / 2;
      expect(at - sends.times[k]!, `storm of ${storm}: wait before retry ${k + 1}`).toBeGreaterThanOrEqual(floor - 1);
    });
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    seen.push(`${storm}→${attempts}${outcome.settled === "rejected" ? " (overloaded)" : ""}`);
    await client.close();
    cases++;
  }
  console.log(`overload storms, -32001 count → attempts the fake saw (retry bound ${RETRY_BOUND}): ${seen.join(", ")}`);
});

/** The transport as the client sees it, with the time each request of `method` was handed to it. */
function timedSends(transport: Transport, method: string): { transport: Transport; times: number[] } {
  const times: number[] = [];
  return {
    times,
    transport: {
      messages$: transport.messages$,
      diagnostics$: transport.diagnostics$,
      closed: transport.closed,
      close: () => transport.close(),
      send: (message: JsonRpcMessage) => {
        if ((message as { method?: unknown }).method === method) times.push(performance.now());
        return transport.send(message);
      },
    },
  };
}
