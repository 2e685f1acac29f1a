import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { FakeAppServer, type FakeAppServerOptions } from "@codex-rpc/testing";
import {
  CodexClient,
  ConnectionClosedError,
  RequestAbortedError,
  RequestTimeoutError,
  ServerOverloadedError,
  type CodexClientOptions,
} from "@codex-rpc/core";
import { clientInternals } from "@codex-rpc/core/testing";

async function connect(serverOptions: FakeAppServerOptions = {}, clientOptions: CodexClientOptions = {}) {
  const server = new FakeAppServer(serverOptions);
  const client = await CodexClient.connect(server.transport, { overloadRetry: { initialDelayMs: 1, maxDelayMs: 5 }, ...clientOptions });
  return { server, client };
}

describe("handshake and requests (fake server)", () => {
  it("sends initialize with client info and capabilities, then the initialized notification", async () => {
    const { server, client } = await connect({}, { clientInfo: { name: "test", version: "1.2.3" }, experimentalApi: true });
    expect(server.received[0]).toEqual({
      id: 1,
      method: "initialize",
      params: { clientInfo: { name: "test", version: "1.2.3" }, capabilities: { experimentalApi: true } },
    });
    expect(server.received[1]).toEqual({ method: "initialized" });
    expect(client.initializeResponse.userAgent).toBe("fake-app-server/0.169.0 (fake)");
    expect(client.serverVersion).toBe("0.169.0");
    expect(client.state).toBe("open");
    await client.close();
    expect(client.state).toBe("closed");
  });

  it("asks the server not to send opted-out notifications", async () => {
    const { server, client } = await connect({}, { optOutNotificationMethods: ["item/reasoning/textDelta"] });
    expect(server.received[0]).toMatchObject({ params: { capabilities: { optOutNotificationMethods: ["item/reasoning/textDelta"] } } });
    await client.close();
  });

  it("validates with the generated validators when asked: a bad result rejects, a bad notification is reported and still delivered", async () => {
    const { server, client } = await connect({}, { validate: true });
    server.respond("thread/list", () => ({ result: { data: "not a list" } }));
    const error = await client.request("thread/list", {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "VALIDATION_FAILED", method: "thread/list", part: "result" });
    const reported: string[] = [];
    client.diagnostics.subscribe((d) => reported.push(`${d.kind}: ${d.message}`));
    const delivered = firstValueFrom(client.notifications("thread/name/updated"));
    server.notify("thread/name/updated", { threadId: 42 });
    expect(await delivered).toEqual({ threadId: 42 });
    expect(reported).toEqual([expect.stringMatching(/^validation-failed: thread\/name\/updated params does not match/)]);
    await client.close();
  });

  it("retries -32001 with backoff, then succeeds", async () => {
    const { server, client } = await connect({ overload: { "thread/start": 2 } });
    const thread = await client.startThread();
    expect(thread.id).toBe("thread-1");
    expect(server.received.filter((m) => "method" in m && m.method === "thread/start")).toHaveLength(3);
    await client.close();
  });

  it("gives up on an overload storm with a typed error after the retry bound", async () => {
    const { server, client } = await connect({ overload: { "thread/start": 100 } }, { overloadRetry: { maxRetries: 3, initialDelayMs: 1, maxDelayMs: 2 } });
    const error = await client.startThread().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerOverloadedError);
    expect(error).toMatchObject({ code: "SERVER_OVERLOADED", method: "thread/start", attempts: 4 });
    expect(server.received.filter((m) => "method" in m && m.method === "thread/start")).toHaveLength(4);
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    await client.close();
  });

  it("ends a request waiting out an overload backoff when the connection closes, at once", async () => {
    const { server, client } = await connect({ overload: { "thread/start": 100 } }, { overloadRetry: { maxRetries: 5, initialDelayMs: 10_000, maxDelayMs: 10_000 } });
    const pending = client.startThread().catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    const crashedAt = performance.now();
    server.crash();
    const error = await pending;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(performance.now() - crashedAt).toBeLessThan(1000);
  });

  it("times out a request the server never answers, with the method and timeout in the error", async () => {
    const stalled = new FakeAppServer({ stalled: true });
    const error = await CodexClient.connect(stalled.transport, { requestTimeoutMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ code: "REQUEST_TIMEOUT", method: "initialize", timeoutMs: 30 });
    // A failed handshake closes the transport: nothing is left running.
    expect(await stalled.transport.closed).toMatchObject({ reason: "closed" });
  });
});

describe("server requests (fake server)", () => {
  it("answers an unknown server request with -32601 and a throwing handler with -32603", async () => {
    const { server, client } = await connect();
    expect(await server.request("item/somethingNew", {})).toMatchObject({ error: { code: -32601 } });
    client.handle("item/tool/requestUserInput", () => {
      throw new Error("no operator here");
    });
    const reply = await server.request("item/tool/requestUserInput", { threadId: "t", turnId: "u", itemId: "i", questions: [] });
    expect(reply).toMatchObject({ error: { code: -32603, message: expect.stringContaining("no operator here") } });
    await client.close();
  });

  it("declines approvals by default, accepts for the session when told, and asks a callback", async () => {
    const params = { threadId: "t", turnId: "u", itemId: "i", startedAtMs: 0, command: "rm -rf /", cwd: "/", reason: null };
    const declining = await connect();
    expect(await declining.server.request("item/commandExecution/requestApproval", params)).toEqual({ result: { decision: "decline" } });
    expect(await declining.server.request("item/fileChange/requestApproval", params)).toEqual({ result: { decision: "decline" } });
    await declining.client.close();

    const accepting = await connect({}, { approvals: "acceptForSession" });
    expect(await accepting.server.request("item/commandExecution/requestApproval", params)).toEqual({ result: { decision: "acceptForSession" } });
    await accepting.client.close();

    const seen: string[] = [];
    const asking = await connect({}, { approvals: (request) => (seen.push(request.kind), "accept") });
    expect(await asking.server.request("execCommandApproval", params)).toEqual({ result: { decision: "approved" } });
    expect(seen).toEqual(["execCommand"]);
    await asking.client.close();
  });

  it("refuses a second handler for a method until the first is disposed", async () => {
    const { server, client } = await connect();
    const dispose = client.handle("item/tool/requestUserInput", () => ({ answers: {} }));
    expect(() => client.handle("item/tool/requestUserInput", () => ({ answers: {} }))).toThrow(
      expect.objectContaining({ code: "HANDLER_ALREADY_REGISTERED" }),
    );
    dispose();
    client.handle("item/tool/requestUserInput", () => ({ answers: { q: { answers: ["yes"] } } }));
    expect(await server.request("item/tool/requestUserInput", {})).toEqual({ result: { answers: { q: { answers: ["yes"] } } } });
    await client.close();
  });

  it("withdraws a pending server request on serverRequest/resolved", async () => {
    const { server, client } = await connect();
    let aborted = false;
    client.handle("item/tool/requestUserInput", (_params, { signal }) => new Promise((resolve) => {
      signal.addEventListener("abort", () => {
        aborted = true;
        resolve({ answers: {} });
      });
    }));
    void server.request("item/tool/requestUserInput", {});
    await new Promise((r) => setTimeout(r, 5));
    expect(clientInternals(client).connection.pendingServerRequestCount).toBe(1);
    server.notify("serverRequest/resolved", { threadId: "t", requestId: 1000 });
    await new Promise((r) => setTimeout(r, 5));
    expect(aborted).toBe(true);
    expect(clientInternals(client).connection.pendingServerRequestCount).toBe(0);
    await client.close();
  });

  it("runs a registered dynamic tool on item/tool/call", async () => {
    const { server, client } = await connect({}, {
      tools: [{ name: "add", description: "adds", inputSchema: { type: "object" }, handler: (args) => String((args as { a: number; b: number }).a + (args as { a: number; b: number }).b) }],
    });
    const reply = await server.request("item/tool/call", { threadId: "t", turnId: "u", callId: "c", tool: "add", namespace: null, arguments: { a: 2, b: 3 } });
    expect(reply).toEqual({ result: { success: true, contentItems: [{ type: "inputText", text: "5" }] } });
    const unknown = await server.request("item/tool/call", { threadId: "t", turnId: "u", callId: "c", tool: "nope", namespace: null, arguments: {} });
    expect(unknown).toMatchObject({ result: { success: false } });
    await client.close();
  });
});

describe("notifications and framing (fake server)", () => {
  it("reports a non-JSON line and skips it; later messages still arrive; unknown methods pass through", async () => {
    const { server, client } = await connect();
    const diagnostics: string[] = [];
    client.diagnostics.subscribe((d) => diagnostics.push(d.kind));
    const unknown = firstValueFrom(client.unknownNotifications());
    const known = firstValueFrom(client.notifications("thread/name/updated"));
    server.sendRaw("this is not json\n");
    server.notify("brandNew/notification", { x: 1 });
    server.notify("thread/name/updated", { threadId: "t", threadName: "renamed" });
    expect(await unknown).toEqual({ method: "brandNew/notification", params: { x: 1 } });
    expect(await known).toEqual({ threadId: "t", threadName: "renamed" });
    expect(diagnostics).toContain("invalid-json");
    await client.close();
  });
});

describe("turns (fake server)", () => {
  it("streams text$ whose concatenation is the completed agent message", async () => {
    const { client } = await connect({ turns: [{ deltas: ["One", " two", " three"] }] });
    const thread = await client.startThread();
    const turn = thread.run("hi");
    const text = firstValueFrom(turn.text$.pipe(toArray()));
    const done = await turn.completed;
    expect((await text).join("")).toBe("One two three");
    expect(done).toMatchObject({ status: "completed", finalText: "One two three", completedBy: "turn/completed" });
    expect(done.items).toHaveLength(1);
    await client.close();
  });

  it("keeps a method this version does not know out of a turn's typed events, whoever else listens", async () => {
    for (const otherSubscriber of [false, true]) {
      const { server, client } = await connect({ turns: [{ deltas: ["a"] }] });
      if (otherSubscriber) client.notifications().subscribe();
      const unknown = firstValueFrom(client.unknownNotifications());
      const thread = await client.startThread();
      const turn = thread.run("x");
      const methods = firstValueFrom(turn.events$.pipe(toArray()));
      const turnId = await turn.started;
      server.notify("brandNew/thing", { threadId: thread.id, turnId });
      await turn.completed;
      expect((await methods).map((e) => e.method)).not.toContain("brandNew/thing");
      expect(await unknown).toMatchObject({ method: "brandNew/thing" });
      await client.close();
    }
  });

  it("keeps a turn's events that arrive before the turn/start reply", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    server.respond("turn/start", () => {
      const turn = { id: "early-turn", status: "inProgress", items: [], error: null, startedAt: null, completedAt: null, durationMs: null, itemsView: "notLoaded", rootTurnId: null };
      const item = { type: "agentMessage", id: "m1", text: "", phase: null, memoryCitation: null };
      server.notify("turn/started", { threadId: thread.id, turn });
      server.notify("item/started", { threadId: thread.id, turnId: "early-turn", item, startedAtMs: 0 });
      server.notify("item/agentMessage/delta", { threadId: thread.id, turnId: "early-turn", itemId: "m1", delta: "before the reply" });
      setTimeout(() => server.notify("turn/completed", { threadId: thread.id, turn: { ...turn, status: "completed" } }), 5);
      return { result: { turn } };
    });
    const turn = thread.run("early");
    const text = firstValueFrom(turn.text$.pipe(toArray()));
    const done = await turn.completed;
    expect(await text).toEqual(["before the reply"]);
    expect(done).toMatchObject({ id: "early-turn", status: "completed", finalText: "before the reply" });
    await client.close();
  });

  it("completes a turn whose turn/completed never comes, by reading the idle thread back", async () => {
    const { server, client } = await connect({ turns: [{ deltas: ["lost", " end"], dropTurnCompleted: true }] });
    const thread = await client.startThread();
    const done = await thread.run("hi", { watchdogGraceMs: 20 }).completed;
    expect(done).toMatchObject({ status: "completed", completedBy: "watchdog", finalText: "lost end" });
    expect(server.received.some((m) => "method" in m && m.method === "thread/read")).toBe(true);
    await client.close();
  });

  it("interrupts explicitly, on abort and when a for-await loop breaks; never because a subscriber left", async () => {
    const { server, client } = await connect({ turns: [{ hold: true }, { hold: true }, { hold: true }, { hold: true }] });
    const thread = await client.startThread();

    const explicit = thread.run("a");
    await explicit.started;
    await explicit.interrupt();
    expect((await explicit.completed).status).toBe("interrupted");

    const controller = new AbortController();
    const aborted = thread.run("b", { signal: controller.signal });
    controller.abort(); // before turn/start is even answered: the interrupt follows the reply
    expect((await aborted.completed).status).toBe("interrupted");

    const unsubscribed = thread.run("c");
    const subscription = unsubscribed.events$.subscribe();
    await unsubscribed.started;
    subscription.unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.received.filter((m) => "method" in m && m.method === "turn/interrupt")).toHaveLength(2);
    await unsubscribed.interrupt();
    expect((await unsubscribed.completed).status).toBe("interrupted");

    // break interrupts even while text$ is also subscribed.
    const looped = thread.run("d");
    looped.text$.subscribe();
    for await (const event of looped) {
      if (event.method === "item/agentMessage/delta") break;
    }
    expect((await looped.completed).status).toBe("interrupted");
    expect(server.received.filter((m) => "method" in m && m.method === "turn/interrupt")).toHaveLength(4);
    await client.close();
  });

  it("routes two concurrent turns on two threads without crossing events", async () => {
    const { client } = await connect({ turns: [{ deltas: ["A1", "A2"] }, { deltas: ["B1", "B2"] }] });
    const [first, second] = await Promise.all([client.startThread(), client.startThread()]);
    const turnA = first.run("a");
    const turnB = second.run("b");
    const eventsA = firstValueFrom(turnA.events$.pipe(toArray()));
    const eventsB = firstValueFrom(turnB.events$.pipe(toArray()));
    const [doneA, doneB] = await Promise.all([turnA.completed, turnB.completed]);
    expect(doneA.finalText).toBe("A1A2");
    expect(doneB.finalText).toBe("B1B2");
    for (const event of await eventsA) expect((event.params as { threadId: string }).threadId).toBe(first.id);
    for (const event of await eventsB) expect((event.params as { threadId: string }).threadId).toBe(second.id);
    await client.close();
  });

  it("rejects the pending request and the running turn with the typed close error when the server dies", async () => {
    const { server, client } = await connect({ turns: [{ hold: true }] });
    const thread = await client.startThread();
    const turn = thread.run("x");
    await turn.started;
    const pending = client.requestUntyped("slow/thing", {});
    const crashedAt = performance.now();
    server.crash({ signal: "SIGKILL", stderrTail: ["panic: out of cheese"] });
    const [requestError, turnError] = await Promise.all([pending.catch((e: unknown) => e), turn.completed.catch((e: unknown) => e)]);
    const elapsed = performance.now() - crashedAt;
    for (const error of [requestError, turnError]) {
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect((error as ConnectionClosedError).close).toMatchObject({ reason: "exit", signal: "SIGKILL", stderrTail: ["panic: out of cheese"] });
    }
    expect((requestError as ConnectionClosedError).method).toBe("slow/thing");
    expect(String((requestError as Error).message)).toContain("SIGKILL");
    expect(elapsed).toBeLessThan(1000);
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    await expect(client.request("thread/list", {})).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it("leaves no listener, pending request or subscription behind after 500 turns run, subscribed and unsubscribed", async () => {
    const { client } = await connect({ turns: Array.from({ length: 500 }, (_, i) => (i % 2 ? { hold: true } : { deltas: ["x"] })) });
    const thread = await client.startThread();
    for (let i = 0; i < 500; i++) {
      const turn = thread.run(`turn ${i}`);
      const subscription = turn.text$.subscribe();
      if (i % 2) {
        await turn.started;
        subscription.unsubscribe(); // a held turn: leaving does not end it…
        await turn.interrupt(); // …interrupting does
      }
      await turn.completed;
      subscription.unsubscribe();
    }
    expect(clientInternals(client).threadListenerCount).toBe(0);
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    expect(clientInternals(client).connection.pendingServerRequestCount).toBe(0);
    await client.close();
  });

  it("rejects an aborted request with RequestAbortedError and leaves nothing pending", async () => {
    const { server, client } = await connect();
    server.respond("slow/method", () => new Promise(() => {}));
    const controller = new AbortController();
    const pending = client.requestUntyped("slow/method", {}, { signal: controller.signal });
    controller.abort("enough");
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ code: "REQUEST_ABORTED", method: "slow/method", requestId: 2, reason: "enough" });
    expect(clientInternals(client).connection.pendingRequestCount).toBe(0);
    await client.close();
  });
});
