// A scripted text reply through the real codex app-server: the deltas codex forwards, the final
// message, and what codex sent to the model.

import { afterEach, describe, expect, it } from "vitest";
import { reply } from "../src/reply.js";
import { OfflineCodex } from "@codex-rpc/test-support/offline-codex.js";

describe("text reply against the real codex app-server", () => {
  let codex: OfflineCodex | undefined;
  afterEach(async () => {
    await codex?.dispose();
    codex = undefined;
  });

  it("streams a text in 3 deltas whose concatenation is the final agentMessage text", async () => {
    codex = await OfflineCodex.start({ script: [reply.text("Hello from the mock model", { chunks: 3 })] });
    const thread = await codex.startThread();
    const { turn, notifications } = await codex.runTurn(thread, "say hello");

    expect(turn.status).toBe("completed");
    const deltas = notifications.flatMap((n) => (n.method === "item/agentMessage/delta" ? [n] : []));
    expect(deltas.map((n) => n.params.delta)).toEqual(["Hello fr", "om the m", "ock model"]);
    const messages = notifications.flatMap((n) => (n.method === "item/completed" && n.params.item.type === "agentMessage" ? [n.params.item] : []));
    expect(messages).toHaveLength(1);
    expect(messages[0]?.text).toBe(deltas.map((n) => n.params.delta).join(""));
    // The mock's message id becomes the item id clients see.
    expect(deltas.every((n) => n.params.itemId === messages[0]?.id)).toBe(true);
    expect(codex.provider.remainingReplies).toBe(0);
    expect(codex.provider.unexpectedRequests).toEqual([]);
  });

  it("records the model name, the input text and the offered tools", async () => {
    codex = await OfflineCodex.start({
      script: [reply.text("first"), reply.text("second")],
      home: { model: "gpt-mock-7" },
    });
    const thread = await codex.startThread();
    await codex.runTurn(thread, "what is 6 times 7?");
    await codex.runTurn(thread, "and 6 times 8?");

    const [first, second] = codex.provider.requests;
    expect(codex.provider.requests).toHaveLength(2);
    expect(first?.method).toBe("POST");
    expect(first?.path).toBe("/v1/responses");
    expect(first?.model).toBe("gpt-mock-7");
    expect(first?.lastUserText()).toBe("what is 6 times 7?");
    expect(first?.toolNames()).toEqual(expect.arrayContaining(["exec_command", "write_stdin", "request_user_input"]));
    // No credentials go to a custom provider without env_key.
    expect(first?.headers.authorization).toBeUndefined();
    // Each request carries the whole conversation: the second holds the first exchange too.
    expect(second?.userTexts()).toEqual(expect.arrayContaining(["what is 6 times 7?", "and 6 times 8?"]));
    expect(second?.lastUserText()).toBe("and 6 times 8?");
    expect(JSON.stringify(second?.input)).toContain("first");
  });
});
