import { describe, expect, it } from "vitest";
import type { ApprovalRequest, CodexClientOptions } from "@codex-rpc/core";
import { connect } from "../support/connect-to-fake.js";
import { serverRequestReply } from "../support/server-request-reply.js";

/** What codex 0.169.0 sends before it runs an MCP tool (measured): an empty form with the tool in `_meta`. */
const TOOL_APPROVAL = {
  threadId: "t",
  turnId: "u",
  serverName: "echo",
  mode: "form",
  _meta: {
    codex_approval_kind: "mcp_tool_call",
    persist: ["session", "always"],
    tool_name: "echo",
    tool_description: "Echoes the text back.",
    tool_params: { text: "hi" },
    tool_params_display: [{ name: "text", value: "hi", display_name: "text" }],
  },
  message: 'Allow the echo MCP server to run tool "echo"?',
  requestedSchema: { type: "object", properties: {} },
};

/** An MCP server's own `elicitation/create`, forwarded by codex (measured: `_meta: null`). */
const FORM = {
  threadId: "t",
  turnId: "u",
  serverName: "echo",
  mode: "form",
  _meta: null,
  message: "Who are you?",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name" },
      age: { type: "integer" },
      colour: { type: "string", enum: ["red", "blue"] },
      tags: {
        type: "array",
        items: {
          anyOf: [
            { const: "a", title: "A" },
            { const: "b", title: "B" },
          ],
        },
      },
      subscribe: { type: "boolean" },
    },
    required: ["name"],
  },
};

const URL_ELICITATION = { threadId: "t", turnId: null, serverName: "echo", mode: "url", elicitationId: "e1", message: "Sign in", url: "https://example.test/" };

const answer = (params: unknown, options: CodexClientOptions = {}) => serverRequestReply("mcpServer/elicitation/request", params, options);

describe("MCP elicitations (scripted server)", () => {
  it("declines codex's MCP tool approval by default", async () => {
    expect((await answer(TOOL_APPROVAL)).reply).toEqual({ result: { action: "decline" } });
  });

  it("accepts it for the session when the policy says so, with the persist the elicitation offers", async () => {
    expect((await answer(TOOL_APPROVAL, { approvals: "acceptForSession" })).reply).toEqual({
      result: { action: "accept", content: {}, _meta: { persist: "session" } },
    });
    // Where `_meta.persist` offers no "session", acceptForSession accepts this one request.
    const once = { ...TOOL_APPROVAL, _meta: { ...TOOL_APPROVAL._meta, persist: ["always"] } };
    expect((await answer(once, { approvals: "acceptForSession" })).reply).toEqual({ result: { action: "accept", content: {} } });
    expect((await answer({ ...TOOL_APPROVAL, _meta: null }, { approvals: "acceptForSession" })).reply).toEqual({ result: { action: "accept", content: {} } });
  });

  it("shows a policy callback kind mcpElicitation with the tool call, and maps its decisions", async () => {
    const seen: ApprovalRequest[] = [];
    const policy = (decision: "accept" | "cancel") => (request: ApprovalRequest) => (seen.push(request), decision);
    expect((await answer(TOOL_APPROVAL, { approvals: policy("accept") })).reply).toEqual({ result: { action: "accept", content: {} } });
    expect((await answer(TOOL_APPROVAL, { approvals: policy("cancel") })).reply).toEqual({ result: { action: "cancel" } });
    expect(seen[0]).toMatchObject({
      kind: "mcpElicitation",
      method: "mcpServer/elicitation/request",
      toolCall: { server: "echo", tool: "echo", arguments: { text: "hi" } },
    });
    // An empty form that is not codex's tool approval is still a yes/no question, without toolCall.
    await answer({ ...TOOL_APPROVAL, _meta: null }, { approvals: policy("accept") });
    expect(seen[2]).toMatchObject({ kind: "mcpElicitation", toolCall: undefined });
  });

  it("declines a form with fields and a URL without an elicitations handler, whatever the approval policy", async () => {
    expect((await answer(FORM, { approvals: "acceptForSession" })).reply).toEqual({ result: { action: "decline" } });
    expect((await answer(URL_ELICITATION, { approvals: "acceptForSession" })).reply).toEqual({ result: { action: "decline" } });
  });

  it("answers forms and URLs with the elicitations handler, checked against the form", async () => {
    const elicitations: CodexClientOptions["elicitations"] = (request) =>
      request.mode === "url" ? { action: "accept" } : { action: "accept", content: { name: "Ada", age: 36, colour: "blue", tags: ["a"], subscribe: true } };
    expect((await answer(FORM, { elicitations })).reply).toEqual({
      result: { action: "accept", content: { name: "Ada", age: 36, colour: "blue", tags: ["a"], subscribe: true } },
    });
    expect((await answer(URL_ELICITATION, { elicitations })).reply).toEqual({ result: { action: "accept" } });
    expect((await answer(FORM, { elicitations: () => ({ action: "decline" }) })).reply).toEqual({ result: { action: "decline" } });
  });

  it.each([
    ["a missing required field", { action: "accept", content: { age: 1 } }, "required fields name are missing"],
    ["a field the form did not ask for", { action: "accept", content: { name: "x", password: "hunter2-secret" } }, 'field "password" the form did not ask for'],
    ["a wrong type", { action: "accept", content: { name: "x", age: 1.5 } }, '"age" must be an integer'],
    ["a value outside the options", { action: "accept", content: { name: "x", colour: "green" } }, '"colour" must be one of the form\'s options'],
    ["array entries outside the options", { action: "accept", content: { name: "x", tags: ["c"] } }, '"tags" must hold only the form\'s options'],
    ["no content", { action: "accept" }, "needs `content`"],
    ["an unknown action", { action: "maybe" }, "the action must be"],
    ["a persist not offered", { action: "decline", _meta: { persist: "always" } }, "_meta.persist must be one the elicitation offers (none)"],
  ])("refuses %s with -32603 and an INVALID_HANDLER_RESULT diagnostic that holds no value", async (_name, result, detail) => {
    const { reply, diagnostics } = await answer(FORM, { elicitations: () => result as never });
    expect(reply).toMatchObject({ error: { code: -32603 } });
    const reported = diagnostics.filter((diagnostic) => diagnostic.kind === "handler-error").map((diagnostic) => diagnostic.message);
    expect(reported).toEqual([expect.stringContaining(detail)]);
    expect(reported[0]).toContain("mcpServer/elicitation/request");
    expect(JSON.stringify({ reply, reported })).not.toContain("hunter2-secret");
  });

  it("checks own fields only: a required field named constructor must be given, an extra __proto__ field is refused", async () => {
    const form = { ...FORM, requestedSchema: { type: "object", properties: { constructor: { type: "string" } }, required: ["constructor"] } };
    const missing = await answer(form, { elicitations: () => ({ action: "accept", content: {} }) });
    expect(missing.reply).toMatchObject({ error: { code: -32603 } });
    // Raw JSON: an object literal's `__proto__` would set the prototype, not make the field.
    const extra = await answer(FORM, { elicitations: () => JSON.parse('{"action":"accept","content":{"name":"x","__proto__":{"a":1}}}') });
    expect(extra.reply).toMatchObject({ error: { code: -32603 } });
  });

  it("lets the handler ask codex to remember an accepted tool approval in the way it offers", async () => {
    const form = { ...FORM, _meta: { persist: ["session"] } };
    const elicitations = () => ({ action: "accept" as const, content: { name: "x" }, _meta: { persist: "session" } });
    expect((await answer(form, { elicitations })).reply).toMatchObject({ result: { _meta: { persist: "session" } } });
  });

  it("leaves the answer to a registered handler", async () => {
    const { server, client } = await connect();
    client.handle("mcpServer/elicitation/request", () => ({ action: "cancel" }));
    expect(await server.request("mcpServer/elicitation/request", TOOL_APPROVAL)).toEqual({ result: { action: "cancel" } });
    await client.close();
  });
});
