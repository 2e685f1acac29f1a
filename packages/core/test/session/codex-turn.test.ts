import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { ConnectionClosedError } from "@codex-rpc/core";
import { clientInternals } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

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
      const turn = {
        id: "early-turn",
        status: "inProgress",
        items: [],
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
        itemsView: "notLoaded",
        rootTurnId: null,
      };
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

    const interrupts = () => server.received.filter((m) => "method" in m && m.method === "turn/interrupt").length;
    const unsubscribed = thread.run("c");
    const subscription = unsubscribed.events$.subscribe();
    await unsubscribed.started;
    const before = interrupts();
    subscription.unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(interrupts()).toBe(before);
    await unsubscribed.interrupt();
    expect((await unsubscribed.completed).status).toBe("interrupted");

    // break interrupts even while text$ is also subscribed.
    const looped = thread.run("d");
    looped.text$.subscribe();
    const beforeLoop = interrupts();
    for await (const event of looped) {
      if (event.method === "item/agentMessage/delta") break;
    }
    expect((await looped.completed).status).toBe("interrupted");
    // Broken out of after a delta: the turn had begun, so one interrupt, accepted at once.
    expect(interrupts()).toBe(beforeLoop + 1);
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
});
