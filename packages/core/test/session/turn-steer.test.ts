// turn.steer(): `turn/steer` with the running turn's id as `expectedTurnId`; a turn that is not
// running is a TurnNotRunningError, whether the client knows it or the server says so.
import { describe, expect, it } from "vitest";
import { ServerError, TurnNotRunningError } from "@codex-rpc/core";
import { connect } from "../support/connect-to-fake.js";

describe("turn.steer (fake server)", () => {
  it("sends turn/steer with the turn's id and the input, and returns the server's answer", async () => {
    const { server, client } = await connect({ turns: [{ hold: true }] });
    const steers: unknown[] = [];
    server.respond("turn/steer", (params) => {
      steers.push(params);
      return { result: { turnId: (params as { expectedTurnId: string }).expectedTurnId } };
    });
    const thread = await client.startThread();
    const turn = thread.run("start");
    const turnId = await turn.started;
    await expect(turn.steer("also this")).resolves.toEqual({ turnId });
    await turn.steer([{ type: "text", text: "and this", text_elements: [] }], { clientUserMessageId: "m-1" });
    expect(steers).toEqual([
      { threadId: thread.id, expectedTurnId: turnId, input: [{ type: "text", text: "also this" }] },
      { threadId: thread.id, expectedTurnId: turnId, input: [{ type: "text", text: "and this", text_elements: [] }], clientUserMessageId: "m-1" },
    ]);
    await turn.interrupt();
    await turn.completed;
    await client.close();
  });

  it("waits for a queued turn to start before steering it", async () => {
    const { server, client } = await connect({ turns: [{ hold: true }, { hold: true }] });
    server.respond("turn/steer", (params) => ({ result: { turnId: (params as { expectedTurnId: string }).expectedTurnId } }));
    const thread = await client.startThread();
    const first = thread.run("one");
    const second = thread.run("two");
    const steered = second.steer("more");
    await first.interrupt();
    await expect(steered).resolves.toEqual({ turnId: await second.started });
    await second.interrupt();
    await second.completed;
    await client.close();
  });

  it("rejects with TurnNotRunningError after the turn ended, without asking the server", async () => {
    const { server, client } = await connect();
    const thread = await client.startThread();
    const turn = thread.run("hi");
    await turn.completed;
    const error = await turn.steer("too late").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnNotRunningError);
    expect(error).toMatchObject({ code: "TURN_NOT_RUNNING", threadId: thread.id, turnId: await turn.started });
    expect(server.received.some((message) => (message as { method?: string }).method === "turn/steer")).toBe(false);
    await client.close();
  });

  it("turns codex's refusals of a turn that is not running into TurnNotRunningError; other errors stay ServerError", async () => {
    const { server, client } = await connect({ turns: [{ hold: true }] });
    const thread = await client.startThread();
    const turn = thread.run("hi");
    await turn.started;
    // What codex 0.169.0 answers (measured): the turn ended meanwhile, or another turn is the active one.
    for (const message of ["no active turn to steer", "expected active turn id `a` but found `b`"]) {
      server.respond("turn/steer", () => ({ error: { code: -32600, message } }));
      const error = await turn.steer("x").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TurnNotRunningError);
      expect((error as TurnNotRunningError).cause).toBeInstanceOf(ServerError);
      expect((error as Error).message).toContain(message);
    }
    server.respond("turn/steer", () => ({ error: { code: -32600, message: "input must not be empty" } }));
    await expect(turn.steer([])).rejects.toBeInstanceOf(ServerError);
    await turn.interrupt();
    await turn.completed;
    await client.close();
  });

  it("rejects with TurnNotRunningError when the turn never started", async () => {
    const { server, client } = await connect();
    server.respond("turn/start", () => ({ error: { code: -32600, message: "thread not found" } }));
    const thread = await client.startThread();
    const error = await thread
      .run("x")
      .steer("y")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "TURN_NOT_RUNNING", turnId: undefined });
    await client.close();
  });
});

it("steer() then interrupt() called right after it: turn/steer goes out first, as called", async () => {
  // A stranger's review found the interrupt overtaking the steer while turn-steer loaded on demand.
  const { server, client } = await connect({ turns: [{ hold: true }] });
  server.respond("turn/steer", () => ({ result: { turnId: "x" } }));
  const thread = await client.startThread();
  const turn = thread.run("hi");
  await turn.started;
  const steered = turn.steer("more").catch((error: unknown) => error);
  await turn.interrupt();
  await steered;
  const order = server.received.map((m) => (m as { method?: string }).method).filter((m) => m === "turn/steer" || m === "turn/interrupt");
  // An interrupt the fake refused (it came before the turn's turn/started, as with codex) is sent again after it.
  expect(order.filter((method, i) => method !== order[i - 1])).toEqual(["turn/steer", "turn/interrupt"]);
  await client.close();
});
