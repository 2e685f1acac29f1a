// The provider on its own, over plain HTTP: wire format, script consumption, recording, errors.

import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { MockProviderError } from "../src/errors.js";
import { MockResponsesProvider } from "../src/mock-responses-provider.js";
import { reply } from "../src/reply.js";
import type { ResponsesStreamEvent } from "../src/responses-stream-event.js";

interface SseFrame {
  readonly event: string;
  readonly data: ResponsesStreamEvent;
}

function parseSse(text: string): SseFrame[] {
  return text
    .split("\n\n")
    .filter((frame) => frame.trim() !== "")
    .map((frame) => {
      const lines = frame.split("\n");
      const event = lines.find((line) => line.startsWith("event: "))?.slice("event: ".length) ?? "";
      const data = lines.find((line) => line.startsWith("data: "))?.slice("data: ".length) ?? "null";
      return { event, data: JSON.parse(data) as ResponsesStreamEvent };
    });
}

function postResponses(provider: MockResponsesProvider, body: unknown = { model: "m", input: [] }): Promise<Response> {
  return fetch(`${provider.url}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("MockResponsesProvider", () => {
  let provider: MockResponsesProvider | undefined;
  afterEach(async () => {
    await provider?.close();
    provider = undefined;
  });

  it("listens on 127.0.0.1 and gives codex a base URL ending in /v1", async () => {
    provider = await MockResponsesProvider.start();
    expect(provider.url).toBe(`http://127.0.0.1:${provider.port}/v1`);
    expect(provider.port).toBeGreaterThan(0);
  });

  it("streams a text reply as SSE whose event line repeats the data's type", async () => {
    provider = await MockResponsesProvider.start({ script: [reply.text("Hello", { chunks: 3 })] });
    const response = await postResponses(provider, { model: "gpt-test", input: [] });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const frames = parseSse(await response.text());
    expect(frames.every((frame) => frame.event === frame.data.type)).toBe(true);
    expect(frames.map((frame) => frame.event)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(frames.map((frame) => frame.data)).toEqual([
      { type: "response.created", response: expect.objectContaining({ id: "resp_mock_0", status: "in_progress", model: "gpt-test", output: [] }) },
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "message", id: "msg_mock_0_0", role: "assistant", status: "in_progress", content: [] },
      },
      { type: "response.output_text.delta", item_id: "msg_mock_0_0", output_index: 0, content_index: 0, delta: "H" },
      { type: "response.output_text.delta", item_id: "msg_mock_0_0", output_index: 0, content_index: 0, delta: "el" },
      { type: "response.output_text.delta", item_id: "msg_mock_0_0", output_index: 0, content_index: 0, delta: "lo" },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          type: "message",
          id: "msg_mock_0_0",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Hello", annotations: [] }],
        },
      },
      {
        type: "response.completed",
        response: expect.objectContaining({
          id: "resp_mock_0",
          status: "completed",
          output: [expect.objectContaining({ id: "msg_mock_0_0", status: "completed" })],
          usage: {
            input_tokens: 10,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 5,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 15,
          },
        }),
      },
    ]);
  });

  it("sends a function call's arguments with output_item.done, and a namespace when given", async () => {
    const call = reply.toolCall("lookup", { city: "Paris" }, { namespace: "weather", callId: "call_fixed" });
    provider = await MockResponsesProvider.start({ script: [call] });
    const frames = parseSse(await (await postResponses(provider)).text());
    const items = frames.flatMap((frame) =>
      frame.data.type === "response.output_item.added" || frame.data.type === "response.output_item.done" ? [frame.data.item] : [],
    );
    expect(call.callId).toBe("call_fixed");
    expect(items).toEqual([
      { type: "function_call", id: "fc_mock_0_0", call_id: "call_fixed", name: "lookup", namespace: "weather", arguments: "", status: "in_progress" },
      {
        type: "function_call",
        id: "fc_mock_0_0",
        call_id: "call_fixed",
        name: "lookup",
        namespace: "weather",
        arguments: '{"city":"Paris"}',
        status: "completed",
      },
    ]);
  });

  it("streams reasoning before the message: its text deltas, then each summary part, as the Responses API does", async () => {
    const script = [reply.text("Done.", { reasoning: { text: "Look first.", summary: ["**Plan**", ["Rea", "d it"]], chunks: 2 } })];
    provider = await MockResponsesProvider.start({ script });
    const frames = parseSse(await (await postResponses(provider)).text());
    expect(frames.every((frame) => frame.event === frame.data.type)).toBe(true);
    const at = { item_id: "rs_mock_0_0", output_index: 0 };
    expect(frames.slice(1, -4).map((frame) => frame.data)).toEqual([
      { type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_mock_0_0", summary: [] } },
      { type: "response.reasoning_text.delta", ...at, content_index: 0, delta: "Look " },
      { type: "response.reasoning_text.delta", ...at, content_index: 0, delta: "first." },
      { type: "response.reasoning_text.done", ...at, content_index: 0, text: "Look first." },
      { type: "response.reasoning_summary_part.added", ...at, summary_index: 0, part: { type: "summary_text", text: "" } },
      { type: "response.reasoning_summary_text.delta", ...at, summary_index: 0, delta: "**Pl" },
      { type: "response.reasoning_summary_text.delta", ...at, summary_index: 0, delta: "an**" },
      { type: "response.reasoning_summary_text.done", ...at, summary_index: 0, text: "**Plan**" },
      { type: "response.reasoning_summary_part.done", ...at, summary_index: 0, part: { type: "summary_text", text: "**Plan**" } },
      { type: "response.reasoning_summary_part.added", ...at, summary_index: 1, part: { type: "summary_text", text: "" } },
      { type: "response.reasoning_summary_text.delta", ...at, summary_index: 1, delta: "Rea" },
      { type: "response.reasoning_summary_text.delta", ...at, summary_index: 1, delta: "d it" },
      { type: "response.reasoning_summary_text.done", ...at, summary_index: 1, text: "Read it" },
      { type: "response.reasoning_summary_part.done", ...at, summary_index: 1, part: { type: "summary_text", text: "Read it" } },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          type: "reasoning",
          id: "rs_mock_0_0",
          summary: [
            { type: "summary_text", text: "**Plan**" },
            { type: "summary_text", text: "Read it" },
          ],
          content: [{ type: "reasoning_text", text: "Look first." }],
        },
      },
    ]);
    // The message follows as output item 1, and response.completed lists both items.
    expect(frames.at(-4)?.data).toEqual(expect.objectContaining({ type: "response.output_item.added", output_index: 1 }));
    const completed = frames.at(-1)?.data;
    expect(completed?.type === "response.completed" ? completed.response.output.map((item) => item.id) : undefined).toEqual(["rs_mock_0_0", "msg_mock_0_1"]);
  });

  it("a summary-only reasoning item has no content and no reasoning_text events", async () => {
    provider = await MockResponsesProvider.start({ script: [reply.reasoning({ summary: "Short." })] });
    const frames = parseSse(await (await postResponses(provider)).text());
    expect(frames.map((frame) => frame.event)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(frames.at(-2)?.data).toEqual({
      type: "response.output_item.done",
      output_index: 0,
      item: { type: "reasoning", id: "rs_mock_0_0", summary: [{ type: "summary_text", text: "Short." }] },
    });
  });

  it("combined puts several output items in one response, in order", async () => {
    const call = reply.execCommand({ cmd: "ls" });
    provider = await MockResponsesProvider.start({ script: [reply.combined(reply.text("Let me look."), call)] });
    const frames = parseSse(await (await postResponses(provider)).text());
    const completed = frames.at(-1)?.data;
    expect(completed?.type).toBe("response.completed");
    expect(completed?.type === "response.completed" ? completed.response.output.map((item) => item.id) : []).toEqual(["msg_mock_0_0", "fc_mock_0_1"]);
  });

  it("consumes the script in order, records every request and parses the JSON body", async () => {
    provider = await MockResponsesProvider.start({ script: [reply.text("one")] });
    provider.enqueue(reply.text("two"));
    expect(provider.remainingReplies).toBe(2);
    await (await postResponses(provider, { model: "a", input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }] })).text();
    const second = parseSse(await (await postResponses(provider, { model: "b", input: [] })).text());
    expect(second.some((frame) => frame.data.type === "response.output_text.delta" && frame.data.delta === "two")).toBe(true);
    expect(provider.remainingReplies).toBe(0);
    expect(provider.requests.map((request) => [request.index, request.method, request.path, request.model, request.outcome])).toEqual([
      [0, "POST", "/v1/responses", "a", "scripted"],
      [1, "POST", "/v1/responses", "b", "scripted"],
    ]);
    expect(provider.requests[0]?.lastUserText()).toBe("hi");
    expect(provider.requests[0]?.reply).toEqual(reply.text("one"));
  });

  it("reads function_call_output items from a request", async () => {
    provider = await MockResponsesProvider.start({ script: [reply.text("ok")] });
    await (
      await postResponses(provider, {
        model: "m",
        input: [
          { type: "function_call", call_id: "call_a", name: "exec_command", arguments: "{}" },
          { type: "function_call_output", call_id: "call_a", output: "done" },
        ],
      })
    ).text();
    expect(provider.requests[0]?.functionCallOutputs()).toEqual([{ callId: "call_a", output: "done" }]);
    expect(provider.requests[0]?.functionCallOutput("call_a")).toBe("done");
    expect(provider.requests[0]?.functionCallOutput("call_b")).toBeUndefined();
  });

  it("decodes a gzip-compressed body", async () => {
    provider = await MockResponsesProvider.start({ script: [reply.text("ok")] });
    await (
      await fetch(`${provider.url}/responses`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": "gzip" },
        body: gzipSync(JSON.stringify({ model: "zipped", input: [] })),
      })
    ).text();
    expect(provider.requests[0]?.model).toBe("zipped");
  });

  it("answers an unscripted request with a 400 that explains, and records it", async () => {
    provider = await MockResponsesProvider.start({ script: [reply.text("only one")] });
    await (await postResponses(provider)).text();
    const response = await postResponses(provider);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe("mock_script_exhausted");
    expect(body.error.message).toContain("no scripted reply left for request #1 (POST /v1/responses); 1 scripted reply was used");
    expect(provider.unexpectedRequests.map((request) => request.index)).toEqual([1]);
  });

  it("answers other paths with 404 and records them", async () => {
    provider = await MockResponsesProvider.start({ script: [reply.text("kept")] });
    const response = await fetch(`${provider.url}/models`);
    expect(response.status).toBe(404);
    expect(provider.unexpectedRequests.map((request) => [request.method, request.path, request.outcome])).toEqual([["GET", "/v1/models", "notFound"]]);
    expect(provider.remainingReplies).toBe(1);
  });

  it("httpError sends the status with a JSON or text body", async () => {
    provider = await MockResponsesProvider.start({
      script: [reply.httpError(503, { error: { message: "busy" } }), reply.httpError(418, "teapot"), reply.httpError(500)],
    });
    const json = await postResponses(provider);
    expect([json.status, json.headers.get("content-type"), await json.text()]).toEqual([503, "application/json", '{"error":{"message":"busy"}}']);
    const text = await postResponses(provider);
    expect([text.status, await text.text()]).toEqual([418, "teapot"]);
    const fallback = await postResponses(provider);
    expect(await fallback.json()).toEqual({ error: { message: "mock provider: scripted HTTP 500", type: "mock_error" } });
  });

  it("cutStream ends the body after n events and never sends response.completed", async () => {
    provider = await MockResponsesProvider.start({
      script: [reply.cutStream({ afterEvents: 3 }), reply.cutStream({ afterEvents: 1000, of: reply.text("x") })],
    });
    const cut = parseSse(await (await postResponses(provider)).text());
    expect(cut.map((frame) => frame.event)).toEqual(["response.created", "response.output_item.added", "response.output_text.delta"]);
    const all = parseSse(await (await postResponses(provider)).text());
    expect(all.map((frame) => frame.event)).not.toContain("response.completed");
    expect(all.at(-1)?.event).toBe("response.output_item.done");
  });

  it("failed sends response.created then response.failed with the error", async () => {
    provider = await MockResponsesProvider.start({ script: [reply.failed("overheated", { code: "rate_limit_exceeded" })] });
    const frames = parseSse(await (await postResponses(provider)).text());
    expect(frames.map((frame) => frame.event)).toEqual(["response.created", "response.failed"]);
    expect(frames[1]?.data).toEqual({
      type: "response.failed",
      response: expect.objectContaining({ status: "failed", error: { code: "rate_limit_exceeded", message: "overheated" } }),
    });
  });

  it("hang never answers; close() ends the open request and the server", async () => {
    provider = await MockResponsesProvider.start({ script: [reply.hang()] });
    const pending = postResponses(provider).then(
      () => "answered",
      () => "connection closed",
    );
    await provider.waitForRequests(1);
    const race = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve("still waiting"), 100))]);
    expect(race).toBe("still waiting");
    await provider.close();
    expect(await pending).toBe("connection closed");
    await expect(postResponses(provider)).rejects.toThrow();
  });

  it("waitForRequests resolves with the requests, or fails with a coded error", async () => {
    provider = await MockResponsesProvider.start({ script: [reply.text("a")] });
    const waiting = provider.waitForRequests(1);
    await (await postResponses(provider)).text();
    expect((await waiting).map((request) => request.index)).toEqual([0]);
    const error = await provider.waitForRequests(2, { timeoutMs: 20 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MockProviderError);
    expect((error as MockProviderError).code).toBe("WAIT_TIMEOUT");
    const closing = provider.waitForRequests(5).catch((caught: unknown) => (caught as MockProviderError).code);
    await provider.close();
    expect(await closing).toBe("PROVIDER_CLOSED");
  });
});

describe("reply builders", () => {
  it("text splits into at most `chunks` non-empty deltas by code point", () => {
    const deltas = (r: ReturnType<typeof reply.text>) => (r.output[0]?.type === "message" ? r.output[0].deltas : undefined);
    expect(deltas(reply.text("Hello"))).toEqual(["Hello"]);
    expect(deltas(reply.text("ab", { chunks: 5 }))).toEqual(["a", "b"]);
    expect(deltas(reply.text("😀😀😀", { chunks: 2 }))).toEqual(["😀", "😀😀"]);
    expect(deltas(reply.text("", { chunks: 3 }))).toEqual([]);
    expect(deltas(reply.text(["Hel", "", "lo"]))).toEqual(["Hel", "", "lo"]);
  });

  it("reasoning splits each summary part and the text into `chunks` deltas, or takes them as given", () => {
    expect(reply.reasoning({ summary: ["ab", "cd"], text: "xyz", chunks: 2 }).output).toEqual([
      {
        type: "reasoning",
        summary: [
          ["a", "b"],
          ["c", "d"],
        ],
        text: ["x", "yz"],
      },
    ]);
    expect(reply.reasoning({ summary: "whole" }).output).toEqual([{ type: "reasoning", summary: [["whole"]] }]);
    expect(reply.reasoning({ summary: [["pie", "ces"]], text: ["a", "b"], chunks: 9 }).output).toEqual([
      { type: "reasoning", summary: [["pie", "ces"]], text: ["a", "b"] },
    ]);
    expect(reply.reasoning({ text: "only" }).output).toEqual([{ type: "reasoning", summary: [], text: ["only"] }]);
    const answer = reply.text("hi", { reasoning: { summary: "think" }, usage: { inputTokens: 1, outputTokens: 2, reasoningOutputTokens: 1 } });
    expect(answer.output.map((item) => item.type)).toEqual(["reasoning", "message"]);
    expect(answer.usage.reasoningOutputTokens).toBe(1);
    expect(reply.text("hi").output.map((item) => item.type)).toEqual(["message"]);
  });

  it("function calls get unique call ids and JSON-encoded arguments", () => {
    const first = reply.execCommand({ cmd: "echo hi", sandbox_permissions: "require_escalated" });
    const second = reply.functionCall("write_stdin", '{"session_id":1}');
    expect(first.callId).not.toBe(second.callId);
    expect(first.output).toEqual([
      { type: "function_call", name: "exec_command", arguments: '{"cmd":"echo hi","sandbox_permissions":"require_escalated"}', callId: first.callId },
    ]);
    expect(second.output[0]).toEqual(expect.objectContaining({ arguments: '{"session_id":1}' }));
    expect(reply.requestUserInput([]).output[0]).toEqual(expect.objectContaining({ name: "request_user_input", arguments: '{"questions":[]}' }));
  });
});
