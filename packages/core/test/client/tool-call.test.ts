// The handler's signal: it aborts when the call's turn ends, when the server withdraws the request
// (`serverRequest/resolved`) and when the connection closes; and it is left alone otherwise.
import { describe, expect, it } from "vitest";
import { defineTool, type DynamicToolContext } from "@codex-rpc/core";
import { clientInternals } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

function slowTool() {
  const contexts: DynamicToolContext[] = [];
  let release: (text: string) => void = () => {};
  const tool = defineTool({
    name: "slow",
    description: "",
    inputSchema: { type: "object" },
    handler: (_args, context) => {
      contexts.push(context);
      return new Promise<string>((resolve) => {
        release = resolve;
        context.signal.addEventListener("abort", () => resolve("cancelled"));
      });
    },
  });
  return { tool, contexts, release: (text: string) => release(text) };
}

const CALL = { threadId: "t1", turnId: "u1", callId: "c1", tool: "slow", namespace: null, arguments: {} };
const turnCompleted = (turnId: string, status = "interrupted") => ({ threadId: "t1", turn: { id: turnId, status, items: [], error: null } });
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("a tool call's signal", () => {
  it("aborts when its turn completes (whatever the status), not when another turn of the thread does", async () => {
    const { tool, contexts } = slowTool();
    const { server, client } = await connect({}, { tools: [tool] });
    const reply = server.request("item/tool/call", CALL);
    await tick();
    server.notify("turn/completed", turnCompleted("other-turn", "completed"));
    await tick();
    expect(contexts[0]?.signal.aborted).toBe(false);
    server.notify("turn/completed", turnCompleted("u1"));
    expect(await reply).toMatchObject({ result: { success: true, contentItems: [{ text: "cancelled" }] } });
    expect(String(contexts[0]?.signal.reason)).toContain("turn u1 ended (interrupted) before tool call c1 was answered");
    // Nothing is left listening once the call is answered.
    expect(clientInternals(client).threadListenerCount).toBe(0);
    await client.close();
  });

  it("aborts when the server withdraws the request with serverRequest/resolved", async () => {
    const { tool, contexts } = slowTool();
    const { server, client } = await connect({}, { tools: [tool] });
    void server.request("item/tool/call", CALL);
    await tick();
    const sent = server.received.length;
    // The fake server numbers its requests from 1000.
    server.notify("serverRequest/resolved", { threadId: "t1", requestId: 1000 });
    await tick();
    expect(contexts[0]?.signal.aborted).toBe(true);
    expect(String(contexts[0]?.signal.reason)).toContain("was resolved by the server");
    // A withdrawn request gets no answer.
    await tick();
    expect(server.received.length).toBe(sent);
    await client.close();
  });

  it("aborts when the connection closes", async () => {
    const { tool, contexts } = slowTool();
    const { server, client } = await connect({}, { tools: [tool] });
    void server.request("item/tool/call", CALL).catch(() => undefined);
    await tick();
    await client.close();
    expect(contexts[0]?.signal.aborted).toBe(true);
  });

  it("stays quiet through a call that ends normally, and the handler gets the call's ids", async () => {
    const { tool, contexts, release } = slowTool();
    const { server, client } = await connect({}, { tools: [tool] });
    const reply = server.request("item/tool/call", CALL);
    await tick();
    release("done");
    expect(await reply).toMatchObject({ result: { success: true, contentItems: [{ text: "done" }] } });
    expect(contexts[0]).toMatchObject({ threadId: "t1", turnId: "u1", callId: "c1" });
    expect(contexts[0]?.signal.aborted).toBe(false);
    expect(clientInternals(client).threadListenerCount).toBe(0);
    await client.close();
  });

  it("a handler that throws answers success: false with the message, secrets redacted", async () => {
    const tool = defineTool({
      name: "leaky",
      description: "",
      inputSchema: {},
      handler: () => {
        throw new Error("failed with Authorization: Bearer sk-abcdefghijklmnopqrstuvwxyz123456");
      },
    });
    const { server, client } = await connect({}, { tools: [tool] });
    const reply = (await server.request("item/tool/call", { ...CALL, tool: "leaky" })) as { result: { success: boolean; contentItems: [{ text: string }] } };
    expect(reply.result.success).toBe(false);
    expect(reply.result.contentItems[0].text).toMatch(/^Tool "leaky" failed: failed with/);
    expect(reply.result.contentItems[0].text).not.toContain("sk-abcdefghijklmnopqrstuvwxyz123456");
    await client.close();
  });

  it("a handler that returns no tool response (undefined, a stray object) answers success: false, not a null result", async () => {
    for (const returned of [undefined, { hello: 1 }]) {
      const tool = defineTool({ name: "odd", description: "", inputSchema: {}, handler: () => returned as never });
      const { server, client } = await connect({}, { tools: [tool] });
      const reply = (await server.request("item/tool/call", { ...CALL, tool: "odd" })) as { result: { success: boolean; contentItems: [{ text: string }] } };
      expect(reply.result).toEqual({
        success: false,
        contentItems: [{ type: "inputText", text: 'Tool "odd" returned no answer (expected a string or { success, contentItems })' }],
      });
      await client.close();
    }
  });
});
