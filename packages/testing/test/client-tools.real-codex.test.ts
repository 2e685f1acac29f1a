// Tool calls that codex hands to the client, through the real codex app-server: dynamic tools
// (`thread/start` dynamicTools → `item/tool/call`) and `request_user_input`
// (→ `item/tool/requestUserInput`). Both work offline with the experimental API on.

import { afterEach, describe, expect, it } from "vitest";
import type { DynamicToolCallParams, DynamicToolSpec, ToolRequestUserInputParams } from "@codex-rpc/protocol/experimental";
import { reply, type UserInputQuestion } from "../src/reply.js";
import { OfflineCodex } from "@codex-rpc/test-support/offline-codex.js";

const CITY_SCHEMA = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

const QUESTIONS: readonly UserInputQuestion[] = [
  {
    id: "colour",
    header: "Colour",
    question: "Which colour should the button be?",
    options: [
      { label: "Red (Recommended)", description: "Warm and loud." },
      { label: "Blue", description: "Calm." },
    ],
  },
];

describe("client-side tools against the real codex app-server", () => {
  let codex: OfflineCodex | undefined;
  afterEach(async () => {
    await codex?.dispose();
    codex = undefined;
  });

  async function runToolTurn(spec: DynamicToolSpec, call: ReturnType<typeof reply.toolCall>) {
    codex = await OfflineCodex.start({ script: [call, reply.text("It is sunny.")] });
    const calls: DynamicToolCallParams[] = [];
    codex.client.handle("item/tool/call", (params) => {
      calls.push(params);
      return { success: true, contentItems: [{ type: "inputText", text: "sunny, 21 °C" }] };
    });
    const thread = await codex.startThread({ dynamicTools: [spec] });
    const run = await codex.runTurn(thread, "weather in Paris?");
    return { codex, calls, run };
  }

  it("dynamic tool: offered to the model as a function, called via item/tool/call, its result sent back", async () => {
    const call = reply.toolCall("lookup_weather", { city: "Paris" });
    const { codex, calls, run } = await runToolTurn(
      { type: "function", name: "lookup_weather", description: "Looks up the weather.", inputSchema: CITY_SCHEMA },
      call,
    );
    expect(codex.provider.requests[0]?.tools).toContainEqual(expect.objectContaining({ type: "function", name: "lookup_weather", parameters: CITY_SCHEMA }));
    expect(calls).toEqual([expect.objectContaining({ callId: call.callId, tool: "lookup_weather", namespace: null, arguments: { city: "Paris" } })]);
    const toolItems = run.notifications.flatMap((n) => (n.method === "item/completed" && n.params.item.type === "dynamicToolCall" ? [n.params.item] : []));
    expect(toolItems).toEqual([expect.objectContaining({ id: call.callId, status: "completed", success: true })]);
    // Text content items reach the model as a plain string output.
    expect(codex.provider.requests[1]?.functionCallOutput(call.callId)).toBe("sunny, 21 °C");
    expect(run.turn.status).toBe("completed");
  });

  it("dynamic tool in a namespace: the call names the namespace", async () => {
    const call = reply.toolCall("lookup", { city: "Paris" }, { namespace: "weather" });
    const { codex, calls } = await runToolTurn(
      {
        type: "namespace",
        name: "weather",
        description: "Weather tools.",
        tools: [{ type: "function", name: "lookup", description: "Looks up the weather.", inputSchema: CITY_SCHEMA }],
      },
      call,
    );
    expect(codex.provider.requests[0]?.tools).toContainEqual(expect.objectContaining({ type: "namespace", name: "weather" }));
    expect(calls).toEqual([expect.objectContaining({ callId: call.callId, tool: "lookup", namespace: "weather" })]);
    expect(codex.provider.requests[1]?.functionCallOutput(call.callId)).toBe("sunny, 21 °C");
  });

  async function runUserInputTurn(options: { plan: boolean; features?: Record<string, boolean> }) {
    const call = reply.requestUserInput(QUESTIONS);
    codex = await OfflineCodex.start({
      script: [call, reply.text("Blue it is.")],
      ...(options.features === undefined ? {} : { home: { features: options.features } }),
    });
    const asked: ToolRequestUserInputParams[] = [];
    codex.client.handle("item/tool/requestUserInput", (params) => {
      asked.push(params);
      return { answers: { colour: { answers: ["Blue"] } } };
    });
    const thread = await codex.startThread();
    const run = await codex.runTurn(thread, "pick a colour", options.plan ? { collaborationMode: { mode: "plan", settings: { model: "mock-model" } } } : {});
    return { codex, call, asked, run };
  }

  it("request_user_input in Plan mode: item/tool/requestUserInput, the answers go back as JSON", async () => {
    const { codex, call, asked, run } = await runUserInputTurn({ plan: true });
    expect(asked).toEqual([
      expect.objectContaining({
        itemId: call.callId,
        isBlocking: true,
        questions: [expect.objectContaining({ id: "colour", header: "Colour", isOther: true, isSecret: false })],
      }),
    ]);
    expect(codex.provider.requests[1]?.functionCallOutput(call.callId)).toBe('{"answers":{"colour":{"answers":["Blue"]}}}');
    expect(run.turn.status).toBe("completed");
  });

  it("request_user_input in Default mode with the default_mode_request_user_input feature", async () => {
    const { codex, call, asked } = await runUserInputTurn({ plan: false, features: { default_mode_request_user_input: true } });
    expect(asked).toHaveLength(1);
    expect(codex.provider.requests[1]?.functionCallOutput(call.callId)).toBe('{"answers":{"colour":{"answers":["Blue"]}}}');
  });

  it("request_user_input in Default mode without the feature: no client request, the model is told no", async () => {
    const { codex, call, asked, run } = await runUserInputTurn({ plan: false });
    expect(asked).toEqual([]);
    expect(codex.provider.requests[1]?.functionCallOutput(call.callId)).toBe("request_user_input is unavailable in Default mode");
    expect(run.turn.status).toBe("completed");
  });
});
