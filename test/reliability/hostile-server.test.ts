// What a misbehaving server (another codex version, a bug, a proxy cutting frames) and a careless
// handler can do to the client, one case per finding of issue 9, against the fake server: nothing
// crashes the program, every server request is answered once, every request and turn settles.
import { config as rxjsConfig } from "rxjs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CodexClient, type CodexClientOptions, type CompletedTurn, type ConnectionDiagnostic, type Transport, type TurnOptions } from "@codex-rpc/core";
import { clientInternals } from "@codex-rpc/core/testing";
import { FakeAppServer, type FakeAppServerOptions } from "@codex-rpc/testing";
import { recordReliability } from "./support/reliability-report.js";

const escaped: unknown[] = [];
const onEscaped = (error: unknown) => escaped.push(error);
let previousOnUnhandledError: typeof rxjsConfig.onUnhandledError;
beforeAll(() => {
  previousOnUnhandledError = rxjsConfig.onUnhandledError;
  // RxJS would rethrow these from a timer, which ends a Node program: record them instead.
  rxjsConfig.onUnhandledError = onEscaped;
  process.on("unhandledRejection", onEscaped);
  process.on("uncaughtException", onEscaped);
});
afterAll(() => {
  rxjsConfig.onUnhandledError = previousOnUnhandledError;
  process.off("unhandledRejection", onEscaped);
  process.off("uncaughtException", onEscaped);
});
const clients: CodexClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  // Every case: nothing escaped the library.
  expect(escaped.splice(0).map(String)).toEqual([]);
});

async function connect(serverOptions: FakeAppServerOptions = {}, clientOptions: CodexClientOptions = {}) {
  const server = new FakeAppServer({ framing: "ndjson", ...serverOptions });
  const client = await CodexClient.connect(server.transport, clientOptions);
  clients.push(client);
  const diagnostics: ConnectionDiagnostic[] = [];
  client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
  return { server, client, diagnostics };
}

/** Settles within `ms` or says it did not: a hang is a failure, not a test timeout. */
function within<T>(promise: Promise<T>, ms = 2_000): Promise<{ value: T } | { error: unknown } | "pending"> {
  return Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms)),
  ]);
}

const tick = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms));

/** A held turn on thread-1 (turn-1) that streamed "Hello" so far; the test sends the rest. */
async function heldTurn(clientOptions: CodexClientOptions = {}, turnOptions: TurnOptions = {}) {
  const session = await connect({ turns: [{ hold: true, deltas: ["Hello"] }] }, clientOptions);
  const thread = await session.client.startThread();
  const turn = thread.run("hi", turnOptions);
  const text: string[] = [];
  turn.text$.subscribe((delta) => text.push(delta));
  await turn.started;
  await tick();
  const finish = () => {
    const item = { type: "agentMessage", id: "turn-1-message", text: "Hello world", phase: null, memoryCitation: null };
    session.server.notify("item/agentMessage/delta", { threadId: "thread-1", turnId: "turn-1", itemId: "turn-1-message", delta: " world" });
    session.server.notify("item/completed", { threadId: "thread-1", turnId: "turn-1", item, completedAtMs: 0 });
    session.server.notify("turn/completed", { threadId: "thread-1", turn: { id: "turn-1", status: "completed", items: [], error: null } });
  };
  return { ...session, thread, turn, text, finish };
}

const MALFORMED_LINES: Readonly<Record<string, string>> = {
  "serverRequest/resolved without params": `{"method":"serverRequest/resolved"}`,
  "thread/status/changed without status": `{"method":"thread/status/changed","params":{"threadId":"thread-1"}}`,
  "item/started without item": `{"method":"item/started","params":{"threadId":"thread-1","turnId":"turn-1"}}`,
  "item/completed with item null": `{"method":"item/completed","params":{"threadId":"thread-1","turnId":"turn-1","item":null}}`,
  "turn/completed without turn": `{"method":"turn/completed","params":{"threadId":"thread-1"}}`,
  "turn/completed whose turn has no status": `{"method":"turn/completed","params":{"threadId":"thread-1","turn":{"id":"turn-1"}}}`,
  "a 100 000-deep message no rule classifies": `{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
};

describe("malformed notifications inside a live turn", () => {
  for (const [name, line] of Object.entries(MALFORMED_LINES)) {
    it(`${name}: reported once, the turn goes on and completes with every valid delta`, async () => {
      const { server, turn, text, finish, diagnostics } = await heldTurn();
      server.sendRaw(`${line}\n`);
      finish();
      const outcome = await within(turn.completed);
      expect(outcome).toMatchObject({ value: { status: "completed", finalText: "Hello world", finalTextComplete: true } });
      expect(text).toEqual(["Hello", " world"]);
      expect(diagnostics.map((d) => d.kind)).toEqual([name.startsWith("a 100 000") ? "unclassifiable-message" : "malformed-message"]);
      expect(diagnostics[0]!.message.length).toBeLessThan(1_000);
    });
  }

  it("turn/completed without items completes the turn from the streamed items", async () => {
    const { server, turn, diagnostics } = await heldTurn();
    server.notify("item/completed", {
      threadId: "thread-1",
      turnId: "turn-1",
      item: { type: "agentMessage", id: "turn-1-message", text: "Hello", phase: null, memoryCitation: null },
    });
    server.notify("turn/completed", { threadId: "thread-1", turn: { id: "turn-1", status: "completed", error: null } });
    const outcome = await within(turn.completed);
    expect(outcome).toMatchObject({ value: { status: "completed", finalText: "Hello", turn: { items: [] } } });
    expect(diagnostics).toEqual([]);
  });

  it("with validators on, a bad message yields one validation-failed diagnostic, not two", async () => {
    const { server, turn, finish, diagnostics } = await heldTurn({ validate: true });
    server.sendRaw(`${MALFORMED_LINES["item/completed with item null"]}\n`);
    finish();
    await within(turn.completed);
    expect(diagnostics.map((d) => d.kind)).toEqual(["validation-failed"]);
  });

  it("a message whose id is neither string nor number is unclassifiable, not a notification", async () => {
    const { server, client, diagnostics } = await connect();
    const unknown: unknown[] = [];
    client.unknownNotifications().subscribe((n) => unknown.push(n));
    server.sendRaw(`{"id":null,"method":"item/tool/call","params":{}}\n{"id":{"a":1},"method":"x/y"}\n{"id":1e400,"method":"item/tool/call","params":{}}\n`);
    await tick();
    expect(unknown).toEqual([]);
    expect(diagnostics.map((d) => d.kind)).toEqual(["unclassifiable-message", "unclassifiable-message", "unclassifiable-message"]);
    expect(server.received.filter((m) => !("method" in m))).toEqual([]);
  });
});

describe("handler results: every server request is answered exactly once", () => {
  const throwingToString = {
    toString: () => {
      throw new Error("no");
    },
  };
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const outcomes: Readonly<Record<string, () => unknown>> = {
    "throws Object.create(null)": () => {
      throw Object.create(null);
    },
    "rejects with Object.create(null)": () => Promise.reject(Object.create(null)),
    "throws an object whose toString throws": () => {
      throw throwingToString;
    },
    "rejects with an object whose toString throws": () => Promise.reject(throwingToString),
    "throws a Symbol": () => {
      throw Symbol("s");
    },
    "throws a revoked Proxy": () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      throw proxy;
    },
    "returns a BigInt": () => ({ n: 10n }),
    "returns a cyclic object": () => cyclic,
    "returns a Symbol": () => Symbol("s"),
    "returns a function": () => () => 1,
    "returns a thenable whose then throws": () => ({
      then() {
        throw new Error("bad then");
      },
    }),
  };
  for (const [name, handler] of Object.entries(outcomes)) {
    it(`a handler that ${name}: one -32603 reply and one handler-error diagnostic`, async () => {
      const { server, client, diagnostics } = await connect();
      client.handle("item/tool/requestUserInput", handler as never);
      const answer = await within(server.request("item/tool/requestUserInput", { threadId: "t", turnId: "u", itemId: "i", questions: [] }));
      expect(answer).toMatchObject({ value: { error: { code: -32603 } } });
      await tick();
      const replies = server.received.filter((m) => !("method" in m));
      expect(replies).toHaveLength(1);
      expect(diagnostics.map((d) => d.kind)).toEqual(["handler-error"]);
    });
  }

  it("an approval policy that returns something other than a decision: -32603, never forwarded", async () => {
    const { server, diagnostics } = await connect({}, { approvals: (() => "yes please") as never });
    const answer = await within(server.request("item/commandExecution/requestApproval", { threadId: "t", turnId: "u", itemId: "i" }));
    expect(answer).toMatchObject({ value: { error: { code: -32603, message: expect.stringContaining("approval policy returned") } } });
    expect(diagnostics.map((d) => d.kind)).toEqual(["handler-error"]);
  });

  it("an approval decision the request does not offer (availableDecisions) is refused", async () => {
    const { server } = await connect({}, { approvals: () => "acceptForSession" });
    const answer = await within(
      server.request("item/commandExecution/requestApproval", { threadId: "t", turnId: "u", itemId: "i", availableDecisions: ["accept", "decline"] }),
    );
    expect(answer).toMatchObject({ value: { error: { code: -32603, message: expect.stringContaining("not one the server offered") } } });
  });
  it("declining stays possible when availableDecisions does not list it (codex 0.169.0 lists accept, an amendment and cancel)", async () => {
    const { server } = await connect();
    const answer = await within(
      server.request("item/commandExecution/requestApproval", {
        threadId: "t",
        turnId: "u",
        itemId: "i",
        availableDecisions: ["accept", { acceptWithExecpolicyAmendment: { execpolicy_amendment: ["ls"] } }, "cancel"],
      }),
    );
    expect(answer).toEqual({ value: { result: { decision: "decline" } } });
  });
  recordReliability({
    area: "handler results: thrown values, non-JSON results, bad decisions",
    cases: Object.keys(outcomes).length + 3,
    faults: Object.keys(outcomes).length + 2,
  });
});

describe("turn settlement", () => {
  it("a turn/start reply without turn settles the turn with PROTOCOL_ERROR and stops listening", async () => {
    const { server, client } = await connect();
    server.respond("turn/start", () => ({ result: {} }));
    const thread = await client.startThread();
    const turn = thread.run("hi");
    expect(await within(turn.completed)).toMatchObject({ error: { code: "PROTOCOL_ERROR", method: "turn/start" } });
    expect(clientInternals(client).threadListenerCount).toBe(0);
  });

  it("a silent server: turnTimeoutMs settles the turn with TURN_TIMEOUT", async () => {
    const { client } = await connect({ turns: [{ hold: true }] }, { turnTimeoutMs: 50 });
    const turn = (await client.startThread()).run("hi");
    expect(await within(turn.completed)).toMatchObject({ error: { code: "TURN_TIMEOUT", timeoutMs: 50 } });
    expect(clientInternals(client).threadListenerCount).toBe(0);
  });

  it("the watchdog keeps reading an idle thread until the turn shows it ended", async () => {
    const { server, turn, diagnostics } = await heldTurn({}, { watchdogGraceMs: 20 });
    let reads = 0;
    server.respond("thread/read", () => {
      reads++;
      // Twice still running (the server has not caught up), then ended.
      const status = reads < 3 ? "inProgress" : "completed";
      return { result: { thread: { id: "thread-1", turns: [{ id: "turn-1", status, items: [], error: null }] } } };
    });
    server.notify("thread/status/changed", { threadId: "thread-1", status: { type: "idle" } });
    const done = (await within(turn.completed, 5_000)) as { value: CompletedTurn };
    expect(done.value).toMatchObject({ status: "completed", completedBy: "watchdog" });
    expect(reads).toBe(3);
    expect(diagnostics).toEqual([]);
  }, 10_000);

  it("a malformed thread/read reply in the watchdog is reported and read again, not a TypeError", async () => {
    const { server, turn, diagnostics } = await heldTurn({}, { watchdogGraceMs: 20 });
    let reads = 0;
    server.respond("thread/read", () =>
      ++reads === 1
        ? { result: { thread: null } }
        : { result: { thread: { id: "thread-1", turns: [{ id: "turn-1", status: "failed", items: [], error: null }] } } },
    );
    server.notify("thread/status/changed", { threadId: "thread-1", status: { type: "idle" } });
    const done = (await within(turn.completed, 5_000)) as { value: CompletedTurn };
    expect(done.value).toMatchObject({ status: "failed", completedBy: "watchdog" });
    expect(diagnostics.map((d) => d.kind)).toEqual(["turn-recovery"]);
  }, 10_000);

  it("an error reply to the turn/interrupt an abort sends settles the turn with that error", async () => {
    const session = await connect({ turns: [{ hold: true }] });
    session.server.respond("turn/interrupt", () => ({ error: { code: -32600, message: "no such turn" } }));
    const controller = new AbortController();
    const turn = (await session.client.startThread()).run("hi", { signal: controller.signal });
    await turn.started;
    controller.abort();
    expect(await within(turn.completed)).toMatchObject({ error: { code: "SERVER_ERROR", method: "turn/interrupt" } });
    expect(session.diagnostics.map((d) => d.kind)).toEqual(["turn-recovery"]);
  });

  it("a turn cut off mid-message says its final text is incomplete", async () => {
    const { server, turn } = await heldTurn();
    server.notify("turn/completed", { threadId: "thread-1", turn: { id: "turn-1", status: "interrupted", items: [], error: null } });
    const done = (await within(turn.completed)) as { value: CompletedTurn };
    expect(done.value).toMatchObject({ status: "interrupted", finalText: "Hello", finalTextComplete: false, incompleteItemIds: ["turn-1-message"] });
  });

  for (const [name, ms] of [
    ["Infinity", Infinity],
    ["30 days", 30 * 24 * 3_600_000],
  ] as const) {
    it(`requestTimeoutMs, timeoutMs, watchdogGraceMs and turnTimeoutMs of ${name} do not fire after 1 ms`, async () => {
      const { server, client } = await connect({ turns: [{ hold: true }] }, { requestTimeoutMs: ms, turnTimeoutMs: ms });
      server.respond("thread/list", () => new Promise(() => {}));
      const viaDefault = within(client.request("thread/list", {}), 100);
      const viaOption = within(client.request("thread/list", {}, { timeoutMs: ms }), 100);
      const turn = (await client.startThread()).run("hi", { watchdogGraceMs: ms });
      server.notify("thread/status/changed", { threadId: "thread-1", status: { type: "idle" } });
      expect(await viaDefault).toBe("pending");
      expect(await viaOption).toBe("pending");
      expect(await within(turn.completed, 100)).toBe("pending");
    });
  }

  it("a NaN timeout is a RangeError at once, not a timer that fires now", async () => {
    const { client } = await connect();
    await expect(client.request("thread/list", {}, { timeoutMs: Number.NaN })).rejects.toThrow(RangeError);
  });
  recordReliability({ area: "turn settlement: silent, malformed and refusing servers", cases: 10, faults: 10 });
});

describe("bounds", () => {
  it("a server that completes the handshake and drops 50 ms later uses up maxAttempts: the client gives up", async () => {
    let opened = 0;
    const factory = async (): Promise<Transport> => {
      opened++;
      const server = new FakeAppServer({ framing: "ndjson" });
      setTimeout(() => server.crash(), 50);
      return server.transport;
    };
    const client = await CodexClient.connect(factory, { reconnect: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 5 } });
    const outcome = await within(client.closed, 3_000);
    expect(outcome).not.toBe("pending");
    expect(opened).toBe(4); // the first connection and three attempts
    expect(client.state).toBe("closed");
  });

  it("a 1 MB unknown reply id leaves a bounded diagnostic, so replayed diagnostics hold no payloads", async () => {
    const { server, client } = await connect();
    for (let i = 0; i < 3; i++) server.sendRaw(`{"id":"${"x".repeat(1_000_000)}${i}","result":{}}\n`);
    await tick();
    const late: ConnectionDiagnostic[] = [];
    client.diagnostics$.subscribe((d) => late.push(d)).unsubscribe();
    expect(late.map((d) => d.kind)).toEqual(["unknown-response", "unknown-response", "unknown-response"]);
    for (const diagnostic of late) expect(diagnostic.message.length).toBeLessThan(1_000);
  });

  it("a for-await loop that falls too far behind throws QueueOverflowError after what it had, never a silent gap", async () => {
    const { server, client } = await connect({ turns: [{ hold: true }] });
    const turn = (await client.startThread()).run("hi", { maxQueuedEvents: 5 });
    await turn.started;
    await tick();
    const seen: string[] = [];
    const loop = (async () => {
      for await (const event of turn) if (event.method === "item/agentMessage/delta") seen.push(event.params.delta);
    })();
    for (let i = 0; i < 10; i++) server.notify("item/agentMessage/delta", { threadId: "thread-1", turnId: "turn-1", itemId: "turn-1-message", delta: `${i}` });
    expect(await within(loop)).toMatchObject({ error: { code: "QUEUE_OVERFLOW", highWaterMark: 5 } });
    expect(seen).toEqual(["0", "1", "2", "3", "4"]);
  });
});
