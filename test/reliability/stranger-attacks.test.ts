// An outside review of issue 9's promise ("nothing a server sends or a handler does crashes the
// program or leaves a turn hanging; every request and turn settles; memory per bad message is
// bounded; no secret in an error, diagnostic, reply or log"). Each `it` is one attack that
// asserts the promised behaviour: "fixed (was broken): …" ones failed when the review ran and were
// fixed after it (the title names the bug); "holds: …" ones cover behaviour nothing else pinned down.
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { config as rxjsConfig } from "rxjs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import Ws, { WebSocketServer } from "ws";
import { CodexClient, type CodexClientOptions, type ConnectionDiagnostic, type JsonRpcMessage, type Transport } from "@codex-rpc/core";
import { createNdjsonTransport } from "@codex-rpc/core/transport";
import { StderrTail } from "@codex-rpc/core/process";
import { JsonRpcConnection, clientInternals } from "@codex-rpc/core/testing";
import { PROTOCOL_VERSION } from "@codex-rpc/protocol";
import { FakeAppServer, type FakeAppServerOptions } from "@codex-rpc/testing";
import { openWebSocketTransport, type WebSocketConstructor } from "@codex-rpc/websocket";

// --- crash detection: anything the library lets escape is recorded, per test ------------------

const escaped: unknown[] = [];
const onEscaped = (error: unknown) => escaped.push(error);
let previousOnUnhandledError: typeof rxjsConfig.onUnhandledError;
const saved: Record<"unhandledRejection" | "uncaughtException", NodeJS.UnhandledRejectionListener[]> = { unhandledRejection: [], uncaughtException: [] };
beforeAll(() => {
  previousOnUnhandledError = rxjsConfig.onUnhandledError;
  rxjsConfig.onUnhandledError = onEscaped;
  // Vitest's own listeners would report an escape as a file-level error: attribute it to the test instead.
  for (const event of ["unhandledRejection", "uncaughtException"] as const) {
    saved[event] = process.listeners(event as "unhandledRejection");
    process.removeAllListeners(event);
    process.on(event, onEscaped);
  }
});
afterAll(() => {
  rxjsConfig.onUnhandledError = previousOnUnhandledError;
  for (const event of ["unhandledRejection", "uncaughtException"] as const) {
    process.off(event, onEscaped);
    for (const listener of saved[event]) process.on(event, listener as never);
  }
});
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  await tick(20); // let a late rejection surface
  expect(escaped.splice(0).map(String)).toEqual([]);
});

// --- helpers -----------------------------------------------------------------------------------

const tick = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms));

/** Timers armed (not yet fired or cleared) whose delay `matches`, for as long as the test runs. */
function watchTimers(matches: (ms: number) => boolean): Set<unknown> {
  const armed = new Set<unknown>();
  const { setTimeout: realSet, clearTimeout: realClear } = globalThis;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) => {
    const handle = realSet(() => (armed.delete(handle), callback(...args)), ms);
    if (ms > 0 && matches(ms)) armed.add(handle);
    return handle;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((handle: Parameters<typeof clearTimeout>[0]) => (armed.delete(handle), realClear(handle))) as typeof clearTimeout;
  cleanups.push(() => Object.assign(globalThis, { setTimeout: realSet, clearTimeout: realClear }));
  return armed;
}

/** Settles within `ms` or says it did not: a hang is a finding, not a test timeout. */
function within<T>(promise: Promise<T>, ms = 1_000): Promise<{ value: T } | { error: unknown } | "pending"> {
  return Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms)),
  ]);
}

async function connect(serverOptions: FakeAppServerOptions = {}, clientOptions: CodexClientOptions = {}) {
  const server = new FakeAppServer({ framing: "ndjson", ...serverOptions });
  const client = await CodexClient.connect(server.transport, clientOptions);
  cleanups.push(() => client.close());
  const diagnostics: ConnectionDiagnostic[] = [];
  client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
  return { server, client, diagnostics };
}

const INITIALIZE_RESULT = { userAgent: `fake/${PROTOCOL_VERSION} (fake)`, codexHome: "/tmp/x", platformFamily: "unix", platformOs: "linux" };
const turnOf = (id: string, status: string) => ({ id, status, items: [], error: null });
const idle = (threadId = "thread-1") => ({ threadId, status: { type: "idle" } });
const replies = (server: FakeAppServer) => server.received.filter((message) => !("method" in message));

// --- turns ---------------------------------------------------------------------------------------

describe("turns", () => {
  it("fixed (was broken): idle flapping while a watchdog thread/read is slow: one read at a time, no watchdog timer outlives close()", async () => {
    const armed = watchTimers((ms) => ms % 23 === 0); // the watchdog's delays: 23 ms doubling
    const { server, client } = await connect({ turns: [{ hold: true }] });
    let inFlight = 0;
    let maxInFlight = 0;
    server.respond("thread/read", async () => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await tick(90); // a slow server; the turn still shows running
      inFlight--;
      return { result: { thread: { id: "thread-1", turns: [turnOf("turn-1", "inProgress")] } } };
    });
    const turn = (await client.startThread()).run("hi", { watchdogGraceMs: 23 });
    await turn.started;
    await tick(); // past the fake's own "active" status
    for (let i = 0; i < 6; i++) {
      server.notify("thread/status/changed", idle());
      await tick(40);
    }
    await tick(150);
    server.notify("turn/completed", { threadId: "thread-1", turn: turnOf("turn-1", "completed") });
    await turn.completed;
    await client.close();
    // One turn, one watchdog: never two reads of the same thread at once…
    expect.soft(maxInFlight).toBe(1);
    // …and an ended turn of a closed client has no watchdog timer left (orphaned ones wait up to 30 s).
    expect.soft(armed.size).toBe(0);
  });

  it("fixed (was broken): an idle status that arrives before the turn/start reply still arms the watchdog", async () => {
    const { server, client } = await connect();
    server.respond("turn/start", () => {
      // The turn fails at once: the thread is idle again before the reply goes out; no turn/completed.
      server.notify("thread/status/changed", idle());
      return { result: { turn: turnOf("turn-9", "inProgress") } };
    });
    server.respond("thread/read", () => ({ result: { thread: { id: "thread-1", turns: [turnOf("turn-9", "failed")] } } }));
    const turn = (await client.startThread()).run("hi", { watchdogGraceMs: 20 });
    expect(await within(turn.completed, 500)).toMatchObject({ value: { status: "failed", completedBy: "watchdog" } });
  });

  it("fixed (was broken): run() with turnTimeoutMs NaN throws RangeError before turn/start goes out or a listener is added", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    expect(() => thread.run("hi", { turnTimeoutMs: Number.NaN })).toThrow(RangeError);
    await tick(20);
    // A RangeError "at once" must not leave a turn running on the server that nobody can interrupt.
    expect(server.received.filter((m) => (m as { method?: string }).method === "turn/start")).toEqual([]);
    expect(clientInternals(client).threadListenerCount).toBe(0);
  });

  it("fixed (was broken): a turn whose turnTimeoutMs fires before turn/start answers is never interrupted on the server once it does", async () => {
    const { server, client } = await connect();
    server.respond("turn/start", async () => (await tick(80), { result: { turn: turnOf("turn-7", "inProgress") } }));
    const turn = (await client.startThread()).run("hi", { turnTimeoutMs: 20 });
    expect(await within(turn.completed)).toMatchObject({ error: { code: "TURN_TIMEOUT", turnId: undefined } });
    expect(await turn.started).toBe("turn-7"); // the server did start it
    await tick(30);
    // TurnTimeoutError promises "the server is asked to interrupt it": the turn would run on unowned.
    expect(server.received.filter((m) => (m as { method?: string }).method === "turn/interrupt")).toHaveLength(1);
  });

  it("holds: more than 10 000 events before turn/start answers: the first 10 000 are replayed, the rest counted in one buffer-overflow", async () => {
    const { server, client, diagnostics } = await connect();
    server.respond("turn/start", () => {
      for (let i = 0; i < 10_050; i++) server.notify("item/agentMessage/delta", { threadId: "thread-1", turnId: "turn-5", itemId: "m", delta: "." });
      return { result: { turn: turnOf("turn-5", "inProgress") } };
    });
    const turn = (await client.startThread()).run("hi");
    let deltas = 0;
    turn.text$.subscribe(() => deltas++);
    await turn.started;
    server.notify("turn/completed", { threadId: "thread-1", turn: turnOf("turn-5", "completed") });
    expect(await within(turn.completed)).toMatchObject({ value: { status: "completed" } });
    expect(deltas).toBe(10_000);
    expect(diagnostics.map((d) => [d.kind, d.message.includes("50 events")])).toEqual([["buffer-overflow", true]]);
  });

  it("holds: notifications for a turn after its turn/completed, a delta for an item never started, and an item id reused by the next turn", async () => {
    const { server, client } = await connect({
      turns: [
        { hold: true, deltas: [] },
        { hold: true, deltas: [] },
      ],
    });
    const thread = await client.startThread();
    const first = thread.run("one");
    await first.started;
    await tick();
    server.notify("item/agentMessage/delta", { threadId: "thread-1", turnId: "turn-1", itemId: "ghost", delta: "boo" });
    server.notify("turn/completed", { threadId: "thread-1", turn: turnOf("turn-1", "completed") });
    const done = await first.completed;
    server.notify("item/agentMessage/delta", { threadId: "thread-1", turnId: "turn-1", itemId: "turn-1-message", delta: "late" });
    server.notify("turn/completed", { threadId: "thread-1", turn: turnOf("turn-1", "failed") });
    const second = thread.run("two");
    const text: string[] = [];
    second.text$.subscribe((delta) => text.push(delta));
    await second.started;
    await tick();
    server.notify("item/agentMessage/delta", { threadId: "thread-1", turnId: "turn-2", itemId: "turn-1-message", delta: "x" });
    server.notify("turn/completed", { threadId: "thread-1", turn: turnOf("turn-2", "completed") });
    const next = await second.completed;
    expect(done).toMatchObject({ status: "completed", finalText: "" });
    expect(done.items.map((item) => item.id)).toEqual(["turn-1-message"]); // the ghost delta made no item
    expect(next.items.map((item) => (item as { text?: string }).text)).toEqual([""]); // turn 1's item did not leak in
    expect(text).toEqual(["x"]);
    expect(clientInternals(client).threadListenerCount).toBe(0);
  });
});

// --- connection: sends, server requests, replies -----------------------------------------------

describe("connection", () => {
  it("fixed (was broken): a transport whose send throws synchronously: the request rejects and nothing stays pending (no 120 s timer)", async () => {
    const server = new FakeAppServer({ framing: "ndjson" });
    const inner = server.transport;
    const transport: Transport = {
      messages$: inner.messages$,
      diagnostics$: inner.diagnostics$,
      closed: inner.closed,
      close: () => inner.close(),
      send: (message: JsonRpcMessage) => {
        if ((message as { method?: string }).method === "thread/list") throw new Error("socket gone");
        return inner.send(message);
      },
    };
    const connection = new JsonRpcConnection(transport);
    cleanups.push(() => connection.close());
    await expect(connection.request("thread/list", {})).rejects.toThrow("socket gone");
    // Settled for the caller, yet still in the pending map with a live timer (keeps a process alive).
    expect(connection.pendingRequestCount).toBe(0);
  });

  it("holds: a server request id reused after the first was answered, and a reply after its request timed out", async () => {
    const { server, client, diagnostics } = await connect();
    let calls = 0;
    client.handle("item/tool/requestUserInput", () => ({ answers: { n: { answers: [String(++calls)] } } }));
    const params = { threadId: "t", turnId: "u", itemId: "i", questions: [] };
    for (let i = 0; i < 3; i++) {
      server.sendRaw(`${JSON.stringify({ id: 7, method: "item/tool/requestUserInput", params })}\n`);
      await tick();
    }
    expect(replies(server)).toHaveLength(3);
    expect(replies(server).map((m) => (m as { id: number }).id)).toEqual([7, 7, 7]);
    server.respond("thread/list", () => new Promise(() => {}));
    const late = await within(client.request("thread/list", {}, { timeoutMs: 20 }));
    expect(late).toMatchObject({ error: { code: "REQUEST_TIMEOUT" } });
    const id = (late as { error: { requestId: number } }).error.requestId;
    server.sendRaw(`${JSON.stringify({ id, result: { data: [] } })}\n`);
    await tick();
    expect(diagnostics.map((d) => d.kind)).toEqual(["unknown-response"]);
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
  });

  it("holds: serverRequest/resolved racing the handler: withdrawn before → no reply; answered before → one reply, the late resolved is a no-op", async () => {
    const { server, client } = await connect();
    let release!: () => void;
    const signals: AbortSignal[] = [];
    client.handle("item/tool/requestUserInput", async (_params, { signal }) => {
      signals.push(signal);
      await new Promise<void>((resolve) => (release = resolve));
      return { answers: {} };
    });
    const params = { threadId: "t", turnId: "u", itemId: "i", questions: [] };
    void server.request("item/tool/requestUserInput", params); // id 1000
    await tick();
    server.notify("serverRequest/resolved", { threadId: "t", requestId: 1000 });
    await tick();
    release();
    await tick();
    expect(signals[0]!.aborted).toBe(true);
    expect(replies(server)).toEqual([]);
    const second = server.request("item/tool/requestUserInput", params); // id 1001
    await tick();
    release();
    await second;
    server.notify("serverRequest/resolved", { threadId: "t", requestId: 1001 });
    await tick();
    expect(replies(server)).toHaveLength(1);
    expect(signals[1]!.aborted).toBe(false);
    expect(clientInternals(client).connection.pendingServerRequestCount).toBe(0);
  });

  it("holds: 5 000 distinct unknown server requests, and methods named like Object.prototype members, each get one -32601 and one unhandled-server-request diagnostic (validate on)", async () => {
    const { server, client, diagnostics } = await connect({}, { validate: true });
    const methods = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
    // Raw text: an object literal's `__proto__` would set the prototype, not make the key.
    const lines = methods.map((method, i) => `{"id":"p${i}","method":"${method}","params":{"__proto__":{"x":1},"constructor":1}}`);
    for (let i = 0; i < 5_000; i++) lines.push(JSON.stringify({ id: i, method: `x/unknown${i}` }));
    server.sendRaw(`${lines.join("\n")}\n`);
    await tick(100);
    const answers = replies(server) as { error?: { code: number } }[];
    expect(answers).toHaveLength(5_005);
    expect(answers.every((reply) => reply.error?.code === -32601)).toBe(true);
    // One "no helper yet" diagnostic each, naming the method (cut to 100 characters), nothing else.
    expect(diagnostics.map((d) => d.kind)).toEqual(Array(5_005).fill("unhandled-server-request"));
    expect(diagnostics[0]!.message).toContain("no helper yet for __proto__");
    expect(clientInternals(client).connection.pendingServerRequestCount).toBe(0);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("holds: close() inside a handler, inside a text$ subscriber, and twice at once: no crash, everything settles", async () => {
    const a = await connect();
    a.client.handle("item/tool/requestUserInput", async () => {
      await a.client.close();
      return { answers: {} };
    });
    const answered = a.server.request("item/tool/requestUserInput", { threadId: "t", turnId: "u", itemId: "i", questions: [] });
    expect(await within(a.client.closed)).not.toBe("pending");
    expect(await within(answered, 100)).toBe("pending"); // the connection is gone: nothing to answer on
    const b = await connect({ turns: [{ hold: true, deltas: ["one"] }] });
    const turn = (await b.client.startThread()).run("hi");
    turn.text$.subscribe(() => void b.client.close());
    const [first, second] = await Promise.all([b.client.close(), b.client.close(), turn.completed.catch((error: unknown) => error)]);
    expect(first).toEqual(second);
    expect(await within(turn.completed)).toMatchObject({ error: { code: "CONNECTION_CLOSED" } });
    expect(b.client.state).toBe("closed");
  });
});

// --- reconnecting ------------------------------------------------------------------------------

/** A factory whose connections are kept; `initializeGate` holds the handshake of the 2nd one. */
function reconnectingServers() {
  const fakes: FakeAppServer[] = [];
  let open!: () => void;
  const initializeGate = new Promise<void>((resolve) => (open = resolve));
  const factory = async (): Promise<Transport> => {
    const fake = new FakeAppServer({ framing: "ndjson" });
    if (fakes.length === 1) fake.respond("initialize", async () => (await initializeGate, { result: INITIALIZE_RESULT }));
    fakes.push(fake);
    return fake.transport;
  };
  return { fakes, factory, openGate: () => open() };
}

async function until(condition: () => boolean, ms = 1_000): Promise<void> {
  for (const end = Date.now() + ms; !condition(); ) {
    if (Date.now() > end) throw new Error("condition not reached");
    await tick(2);
  }
}

describe("reconnecting", () => {
  it("fixed (was broken): a request made while reconnecting (during the new connection's handshake) fails at once, unsent", async () => {
    const { fakes, factory, openGate } = reconnectingServers();
    const client = await CodexClient.connect(factory, { reconnect: { initialDelayMs: 1, maxDelayMs: 2 } });
    cleanups.push(() => client.close());
    fakes[0]!.crash();
    await until(() => fakes.length === 2 && fakes[1]!.received.length > 0);
    expect(client.state).toBe("reconnecting");
    const outcome = within(client.request("thread/list", {}), 200);
    await tick(20);
    openGate();
    // README: "Requests made while reconnecting fail at once the same way: nothing waits silently."
    expect(await outcome).toMatchObject({ error: { code: "CONNECTION_CLOSED" } });
    expect(fakes[1]!.received.map((m) => (m as { method?: string }).method)).not.toContain("thread/list");
  });

  it("fixed (was broken): a turn started during a reconnect attempt that then fails settles, rather than hang after the next reconnect", async () => {
    const { fakes, factory } = reconnectingServers();
    const client = await CodexClient.connect(factory, { reconnect: { initialDelayMs: 1, maxDelayMs: 2 } });
    cleanups.push(() => client.close());
    const thread = await client.startThread();
    fakes[0]!.crash();
    await until(() => fakes.length === 2 && fakes[1]!.received.length > 0);
    fakes[1]!.respond("turn/start", () => ({ result: { turn: turnOf("turn-9", "inProgress") } }));
    const turn = thread.run("hi");
    await within(turn.started, 100); // refused at once, or accepted by the connection still in its handshake
    fakes[1]!.crash(); // that attempt fails; the next one succeeds
    await until(() => client.state === "open");
    expect(await within(turn.completed, 300)).not.toBe("pending");
  });

  it("holds: for-await over a turn when the connection drops, unawaited turns alongside, then a turn after the reconnect", async () => {
    const fakes: FakeAppServer[] = [];
    const factory = async () => {
      const fake = new FakeAppServer({ framing: "ndjson", turns: [{ hold: true }, { hold: true }] });
      if (fakes.length > 0) {
        fake.respond("thread/resume", () => ({ result: { thread: { id: "thread-1", turns: [] } } }));
        fake.respond("turn/start", () => {
          setTimeout(() => fake.notify("turn/completed", { threadId: "thread-1", turn: turnOf("turn-x", "completed") }), 5);
          return { result: { turn: turnOf("turn-x", "inProgress") } };
        });
      }
      fakes.push(fake);
      return fake.transport;
    };
    const client = await CodexClient.connect(factory, { reconnect: { initialDelayMs: 1, maxDelayMs: 2 } });
    cleanups.push(() => client.close());
    const thread = await client.startThread();
    const turn = thread.run("one");
    thread.run("two"); // nobody ever awaits its started or completed
    const loop = (async () => {
      for await (const event of turn) void event;
    })();
    await turn.started;
    fakes[0]!.crash();
    expect(await within(loop)).toMatchObject({ error: { code: "CONNECTION_CLOSED" } });
    await until(() => client.state === "open");
    expect(await within(thread.run("three").completed)).toMatchObject({ value: { status: "completed" } });
    expect(clientInternals(client).threadListenerCount).toBe(0);
  });

  it("fixed (was broken): reconnect delays of NaN: a RangeError at connect(), not an unhandled rejection and a client `reconnecting` for ever", async () => {
    const fakes: FakeAppServer[] = [];
    const factory = async () => (fakes.push(new FakeAppServer({ framing: "ndjson" })), fakes.at(-1)!.transport);
    let client: CodexClient;
    try {
      client = await CodexClient.connect(factory, { reconnect: { initialDelayMs: Number.NaN } });
    } catch (error) {
      expect(error).toBeInstanceOf(RangeError); // refusing the option at connect() would do too
      return;
    }
    cleanups.push(() => client.close());
    fakes[0]!.crash();
    expect(await within(client.closed, 300)).not.toBe("pending");
  });
});

// --- bounds and secrets --------------------------------------------------------------------------

describe("bounds and secrets", () => {
  it("fixed (was broken): a 64 KB error message of `a-a-a-…` blocks the event loop for seconds (quadratic URL_USERINFO in redactSecrets)", async () => {
    const { server, client } = await connect();
    server.respond("thread/list", () => ({ error: { code: -32000, message: "a-".repeat(32 * 1024) } }));
    const started = performance.now();
    const error = await client.request("thread/list", {}).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({ code: "SERVER_ERROR" });
    expect(elapsed).toBeLessThan(300);
  });

  it("fixed (was broken): each invalid 16 KB line costs ~120 ms of redaction for its 200-character excerpt (10 lines: over a second)", async () => {
    const { server, diagnostics } = await connect();
    const started = performance.now();
    for (let i = 0; i < 10; i++) server.sendRaw(`${"a-".repeat(8 * 1024)}\n`);
    const elapsed = performance.now() - started;
    expect(diagnostics.map((d) => d.kind)).toEqual(Array(10).fill("invalid-json"));
    expect(elapsed).toBeLessThan(300);
  });

  it("fixed (was broken): a ServerError keeps the server's whole message and `data` strings (1 MB each), though data is documented bounded", async () => {
    const { server, client } = await connect();
    const big = "x ".repeat(500_000);
    server.respond("thread/list", () => ({ error: { code: -32000, message: big, data: { detail: big } } }));
    const error = (await client.request("thread/list", {}).catch((e: unknown) => e)) as { message: string; rpcMessage: string; data: unknown };
    expect.soft(error.message.length).toBeLessThan(100_000);
    expect.soft(JSON.stringify(error.data).length).toBeLessThan(100_000);
  });

  it("fixed (was broken): ServerError.data keeps header values that are arrays (Node's set-cookie, multi-valued headers) unredacted", async () => {
    const { server, client } = await connect();
    const headers = { "set-cookie": ["__Host-sid=FAKEsid0123456789abcdef; Path=/; Secure"], authorization: ["Basic RkFLRTpmYWtlLXBhc3N3b3Jk"] };
    server.respond("thread/list", () => ({ error: { code: -32000, message: "upstream refused", data: { status: 401, headers } } }));
    const error = await client.request("thread/list", {}).catch((e: unknown) => e);
    const shown = inspect(error, { depth: null });
    expect(shown).not.toContain("FAKEsid0123456789abcdef");
    expect(shown).not.toContain("RkFLRTpmYWtlLXBhc3N3b3Jk");
  });

  it("fixed (was broken): a stderr line cut at 4 000 characters inside a quoted password keeps the part before the cut: the cut happens before redaction", async () => {
    const lines: string[] = [];
    const tail = new StderrTail(10, (line) => lines.push(line));
    const prefix = `DEBUG codex_core::client: request body {"model":"gpt-5","password":"`;
    // A long debug line, as codex writes them; the cap falls 30 characters into the password.
    tail.push(`${prefix.padStart(4_000 - 30, "x")}FAKE-correct-horse-battery-staple-0123456789"}\n`);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.includes("FAKE-correct-horse") ? lines[0]!.slice(-80) : "no leak").toBe("no leak");
  });

  it("fixed (was broken): a diagnostic excerpt shows a password cut off by the 16 KB redaction window once earlier long secrets shrink", async () => {
    const { server, diagnostics } = await connect();
    const password = "FAKE-correct-horse-battery-staple-".repeat(10);
    // Eight long keys, sized so that the 16 KB window ends 100 characters into the password.
    const head = `{"env":"`;
    const mid = `","password":"`;
    const bodies = 16 * 1024 - 100 - head.length - mid.length - 7 - 8 * "sk-proj-".length;
    const keys = Array.from({ length: 8 }, (_, i) => `sk-proj-${String(i).repeat(Math.floor(bodies / 8) + (i === 0 ? bodies % 8 : 0))}`).join(" ");
    server.sendRaw(`${head}${keys}${mid}${password}\n`); // unterminated: invalid JSON, so it is excerpted
    await tick();
    expect(diagnostics.map((d) => d.kind)).toEqual(["invalid-json"]);
    expect(diagnostics[0]!.excerpt).toContain("[REDACTED]");
    expect(diagnostics[0]!.excerpt).not.toContain("FAKE-correct-horse");
  });

  it("fixed (was broken): the turn id the server chose reaches TurnTimeoutError.message redacted and bounded", async () => {
    const { server, client } = await connect();
    const turnId = `sk-proj-FAKE0fake1FAKE2fake3FAKE4fake5-${"t".repeat(200_000)}`;
    server.respond("turn/start", () => ({ result: { turn: turnOf(turnId, "inProgress") } }));
    const turn = (await client.startThread()).run("hi", { turnTimeoutMs: 30 });
    const outcome = (await within(turn.completed)) as { error: Error };
    expect(outcome.error).toMatchObject({ code: "TURN_TIMEOUT" });
    const { message } = outcome.error;
    expect({ leaks: message.includes("FAKE0fake1FAKE2fake3"), length: message.length }).toEqual({ leaks: false, length: expect.any(Number) });
    expect(message.length).toBeLessThan(10_000);
  });
});

describe("limits", () => {
  it("fixed (was broken): the line cap is validated on WebSocket (maxMessageBytes NaN: RangeError) but not on NDJSON transports (maxLineBytes NaN: no cap at all)", async () => {
    await expect(
      openWebSocketTransport({ url: "ws://127.0.0.1:1", WebSocket: Ws as unknown as WebSocketConstructor, maxMessageBytes: Number.NaN }),
    ).rejects.toThrow(RangeError);
    let sink!: { data(chunk: Uint8Array): void };
    let transport: Transport;
    try {
      transport = createNdjsonTransport({
        input: (s) => (sink = s),
        write: () => {},
        shutdown: async () => ({ reason: "closed" }),
        ended: new Promise(() => {}),
        maxLineBytes: Number.NaN,
      });
    } catch (error) {
      expect(error).toBeInstanceOf(RangeError);
      return;
    }
    cleanups.push(() => transport.close());
    // Accepted, and NaN compares false with every length: a 4 MB line goes through, as would 4 GB.
    let delivered = 0;
    transport.messages$.subscribe(() => delivered++);
    sink.data(new TextEncoder().encode(`{"method":"x","params":"${"y".repeat(4 << 20)}"}\n`));
    expect(delivered, "maxLineBytes NaN was accepted and caps nothing").toBe(0);
  });
});

// --- WebSocket -------------------------------------------------------------------------------

/** A loopback codex stand-in: answers initialize, then runs `script` on the socket. */
async function wsServer(script: (socket: Ws) => void) {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve) => wss.once("listening", resolve));
  wss.on("connection", (socket) => {
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { id?: unknown; method?: string };
      if (message.method === "initialize") socket.send(JSON.stringify({ id: message.id, result: INITIALIZE_RESULT }));
      if (message.method === "initialized") script(socket);
    });
  });
  cleanups.push(() => new Promise((resolve) => wss.close(resolve)));
  const { port } = wss.address() as AddressInfo;
  const transport = await openWebSocketTransport({ url: `ws://127.0.0.1:${port}`, WebSocket: Ws as unknown as WebSocketConstructor });
  const client = await CodexClient.connect(transport);
  cleanups.push(() => client.close());
  const diagnostics: ConnectionDiagnostic[] = [];
  client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
  return { client, diagnostics };
}

describe("WebSocket", () => {
  it("fixed (was broken): the server's close reason reaches ConnectionClosedError.close.closeReason and client.closed unredacted", async () => {
    const { client } = await wsServer((socket) => setTimeout(() => socket.close(4000, "Authorization: Bearer FAKEfakeBearer0123456789"), 30));
    const error = await client.request("thread/list", {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONNECTION_CLOSED" });
    expect((error as Error).message).not.toContain("FAKEfakeBearer0123456789"); // the message is redacted…
    expect(inspect(error, { depth: null })).not.toContain("FAKEfakeBearer0123456789"); // …its fields are not
    expect(JSON.stringify(await client.closed)).not.toContain("FAKEfakeBearer0123456789");
  });

  it("fixed (was broken): a reply whose id merely starts with the heartbeat prefix is swallowed: no unknown-response diagnostic", async () => {
    const { diagnostics } = await wsServer((socket) => socket.send(JSON.stringify({ id: "codex-rpc-heartbeat-42", result: { stolen: true } })));
    await tick(50);
    expect(diagnostics.map((d) => d.kind)).toContain("unknown-response");
  });
});
