// A scripted reasoning item through the real codex app-server (0.169.0): which `item/reasoning/*`
// notifications codex sends for the mock's reasoning events, the completed item, and what codex
// sends back to the model next time.

import type { ServerNotification } from "@codex-rpc/protocol";
import { OfflineCodex } from "@codex-rpc/test-support/offline-codex.js";
import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../src/reply.js";

/** The notifications about reasoning, without the ids every one of them repeats. */
function reasoningNotifications(notifications: readonly ServerNotification[]): { method: string; params: Record<string, unknown> }[] {
  return notifications.flatMap((n) => {
    if (n.method.startsWith("item/reasoning/")) {
      const { threadId: _thread, turnId: _turn, ...params } = n.params as Record<string, unknown>;
      return [{ method: n.method, params }];
    }
    if ((n.method === "item/started" || n.method === "item/completed") && n.params.item.type === "reasoning") {
      const { startedAtMs: _started, completedAtMs: _completed, ...item } = n.params.item;
      return [{ method: n.method, params: { item } }];
    }
    return [];
  });
}

describe("reasoning reply against the real codex app-server", () => {
  let codex: OfflineCodex | undefined;
  afterEach(async () => {
    await codex?.dispose();
    codex = undefined;
  });

  it("forwards the reasoning text and summary deltas and completes a reasoning item before the answer", async () => {
    const reasoning = { text: "I should read the file first.", summary: ["**Plan**\n\nRead the file.", "Then answer."], chunks: 3 };
    codex = await OfflineCodex.start({ script: [reply.text("The answer.", { chunks: 2, reasoning })] });
    const thread = await codex.startThread();
    const { turn, items, notifications } = await codex.runTurn(thread, "think, then answer");

    expect(turn.status).toBe("completed");
    const id = "rs_mock_0_0";
    expect(reasoningNotifications(notifications)).toEqual([
      { method: "item/started", params: { item: { type: "reasoning", id, summary: [], content: [] } } },
      { method: "item/reasoning/textDelta", params: { itemId: id, delta: "I should ", contentIndex: 0 } },
      { method: "item/reasoning/textDelta", params: { itemId: id, delta: "read the f", contentIndex: 0 } },
      { method: "item/reasoning/textDelta", params: { itemId: id, delta: "ile first.", contentIndex: 0 } },
      { method: "item/reasoning/summaryPartAdded", params: { itemId: id, summaryIndex: 0 } },
      { method: "item/reasoning/summaryTextDelta", params: { itemId: id, delta: "**Plan**", summaryIndex: 0 } },
      { method: "item/reasoning/summaryTextDelta", params: { itemId: id, delta: "\n\nRead t", summaryIndex: 0 } },
      { method: "item/reasoning/summaryTextDelta", params: { itemId: id, delta: "he file.", summaryIndex: 0 } },
      { method: "item/reasoning/summaryPartAdded", params: { itemId: id, summaryIndex: 1 } },
      { method: "item/reasoning/summaryTextDelta", params: { itemId: id, delta: "Then", summaryIndex: 1 } },
      { method: "item/reasoning/summaryTextDelta", params: { itemId: id, delta: " ans", summaryIndex: 1 } },
      { method: "item/reasoning/summaryTextDelta", params: { itemId: id, delta: "wer.", summaryIndex: 1 } },
      {
        method: "item/completed",
        params: { item: { type: "reasoning", id, summary: ["**Plan**\n\nRead the file.", "Then answer."], content: ["I should read the file first."] } },
      },
    ]);
    // The reasoning item is done before the answer starts.
    const methods = notifications.map((n) => (n.method === "item/started" || n.method === "item/completed" ? `${n.method} ${n.params.item.type}` : n.method));
    expect(methods.indexOf("item/completed reasoning")).toBeLessThan(methods.indexOf("item/started agentMessage"));
    expect(items.map((item) => item.type)).toEqual(["userMessage", "reasoning", "agentMessage"]);
    // codex's own turn/completed lists the agent message only.
    const completed = notifications.find((n) => n.method === "turn/completed");
    expect(completed?.method === "turn/completed" ? completed.params.turn.items.map((item) => item.type) : undefined).toEqual(["agentMessage"]);
    // codex asked for summaries and encrypted reasoning.
    expect(codex.provider.requests[0]?.body).toEqual(expect.objectContaining({ reasoning: { summary: "auto" }, include: ["reasoning.encrypted_content"] }));
  });

  it("a summary-only item ends with content [], a text-only one with summary []", async () => {
    codex = await OfflineCodex.start({
      script: [
        reply.text("A.", { reasoning: { summary: "Only a summary", chunks: 2 } }),
        reply.text("B.", { reasoning: { text: "Only raw text", chunks: 2 } }),
      ],
    });
    const thread = await codex.startThread();
    const first = reasoningNotifications((await codex.runTurn(thread, "one")).notifications);
    const second = reasoningNotifications((await codex.runTurn(thread, "two")).notifications);

    expect(first.map((n) => n.method)).toEqual([
      "item/started",
      "item/reasoning/summaryPartAdded",
      "item/reasoning/summaryTextDelta",
      "item/reasoning/summaryTextDelta",
      "item/completed",
    ]);
    expect(first.at(-1)?.params.item).toEqual({ type: "reasoning", id: "rs_mock_0_0", summary: ["Only a summary"], content: [] });
    expect(second.map((n) => n.method)).toEqual(["item/started", "item/reasoning/textDelta", "item/reasoning/textDelta", "item/completed"]);
    expect(second.at(-1)?.params.item).toEqual({ type: "reasoning", id: "rs_mock_1_0", summary: [], content: ["Only raw text"] });
  });

  it("sends the reasoning item back to the model in the next request's input", async () => {
    codex = await OfflineCodex.start({
      script: [reply.combined(reply.reasoning({ summary: "Plan it", text: "Raw" }), reply.text("first")), reply.text("second")],
    });
    const thread = await codex.startThread();
    await codex.runTurn(thread, "one");
    await codex.runTurn(thread, "two");

    const echoed = codex.provider.requests[1]?.input.filter((item) => item.type === "reasoning");
    expect(echoed).toEqual([
      {
        type: "reasoning",
        id: "rs_mock_0_0",
        summary: [{ type: "summary_text", text: "Plan it" }],
        content: [{ type: "reasoning_text", text: "Raw" }],
        encrypted_content: null,
      },
    ]);
  });
});
