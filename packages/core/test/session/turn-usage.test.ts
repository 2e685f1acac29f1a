// Token usage on the completed turn: the last `thread/tokenUsage/updated` of this turn.
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ThreadTokenUsage } from "@codex-rpc/protocol";
import { connect } from "../support/connect-to-fake.js";

const usage = (total: number, last: number) => ({
  total: { totalTokens: total, inputTokens: total, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 0, reasoningOutputTokens: 0 },
  last: { totalTokens: last, inputTokens: last, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 0, reasoningOutputTokens: 0 },
  modelContextWindow: 1000,
});

describe("token usage on the completed turn (fake server)", () => {
  it("keeps the last thread/tokenUsage/updated of this turn, not another turn's", async () => {
    const { server, client } = await connect({ turns: [{ hold: true }] });
    const thread = await client.startThread();
    const turn = thread.run("hi");
    const turnId = await turn.started;
    server.notify("thread/tokenUsage/updated", { threadId: thread.id, turnId, tokenUsage: usage(15, 15) });
    server.notify("thread/tokenUsage/updated", { threadId: thread.id, turnId, tokenUsage: usage(30, 15) });
    server.notify("thread/tokenUsage/updated", { threadId: thread.id, turnId: "another", tokenUsage: usage(99, 99) });
    await turn.interrupt();
    const done = await turn.completed;
    expectTypeOf(done.usage).toEqualTypeOf<ThreadTokenUsage | null>();
    expect(done.usage).toEqual(usage(30, 15));
    await client.close();
  });

  it("is null when the server sent none", async () => {
    const { client } = await connect();
    const thread = await client.startThread();
    expect((await thread.run("hi").completed).usage).toBeNull();
    await client.close();
  });
});
