// Server requests the client answers by itself, through the real codex app-server: MCP
// elicitations (codex's approval before an MCP tool runs, and an MCP server's own form, forwarded)
// through the approvals policy and the `elicitations` option, and `request_user_input` through the
// `userInput` option and the non-interactive default. The MCP server is support/mcp-echo-server.mjs,
// started by codex from the temporary CODEX_HOME's config.toml; it logs every call it gets.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { userInputAnswers, type ApprovalRequest, type CodexClientOptions, type ConnectionDiagnostic } from "@codex-rpc/core";
import type { ServerNotification } from "@codex-rpc/protocol";
import { reply, type ScriptedReply } from "@codex-rpc/testing";
import { OfflineCodex } from "./support/offline-codex.js";

const MCP_SERVER = fileURLToPath(new URL("./support/mcp-echo-server.mjs", import.meta.url));

interface McpLogEntry {
  readonly event: "initialize" | "call" | "elicitation-answer";
  readonly tool?: string;
  readonly arguments?: unknown;
  readonly answer?: { readonly result?: { readonly action: string; readonly content?: unknown } };
}

let codex: OfflineCodex | undefined;
const logDirs: string[] = [];
afterEach(async () => {
  await codex?.dispose();
  codex = undefined;
  for (const dir of logDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** codex with the echo MCP server configured as `[mcp_servers.echo]`, the thread under approval policy "untrusted". */
async function startWithMcp(script: readonly ScriptedReply[], client: CodexClientOptions = {}) {
  const logDir = await mkdtemp(join(tmpdir(), "codex-rpc-mcp-log-"));
  logDirs.push(logDir);
  const log = join(logDir, "calls.jsonl");
  codex = await OfflineCodex.start({
    script,
    client: { validate: true, ...client },
    home: { mcpServers: { echo: { command: process.execPath, args: [MCP_SERVER], env: { MCP_ECHO_LOG: log } } } },
  });
  const diagnostics: ConnectionDiagnostic[] = [];
  codex.client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
  const thread = await codex.startThread({ approvalPolicy: "untrusted" });
  const mcpLog = (): McpLogEntry[] =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as McpLogEntry)
      : [];
  return { codex, thread, diagnostics, mcpLog };
}

function mcpToolItems(notifications: readonly ServerNotification[]) {
  return notifications.flatMap((n) => (n.method === "item/completed" && n.params.item.type === "mcpToolCall" ? [n.params.item] : []));
}

const elicitationRequests = (codex: OfflineCodex) => codex.serverRequests.filter((request) => request.method === "mcpServer/elicitation/request");
/** What would mean the client answered badly: a refusal, a failing or invalid answer, or params it found invalid (validate is on). */
const unhandled = (diagnostics: readonly ConnectionDiagnostic[]) =>
  diagnostics.filter((d) => d.kind === "unhandled-server-request" || d.kind === "handler-error" || d.kind === "validation-failed");

describe("MCP elicitations against the real codex app-server", () => {
  it("by default: codex's approval for the MCP tool is declined, the tool does not run and the model is told", async () => {
    const call = reply.mcpToolCall("echo", "echo", { text: "hi" });
    const { codex, thread, diagnostics, mcpLog } = await startWithMcp([call, reply.text("It was declined.")]);
    const run = await codex.runTurn(thread, "echo hi");

    // What codex 0.169.0 sends before it runs an MCP tool: an empty form, the tool named in `_meta`.
    expect(elicitationRequests(codex).map((request) => request.params)).toEqual([
      expect.objectContaining({
        serverName: "echo",
        mode: "form",
        requestedSchema: { type: "object", properties: {} },
        message: 'Allow the echo MCP server to run tool "echo"?',
        _meta: expect.objectContaining({
          codex_approval_kind: "mcp_tool_call",
          persist: ["session", "always"],
          tool_name: "echo",
          tool_params: { text: "hi" },
        }),
      }),
    ]);
    expect(mcpLog().filter((entry) => entry.event === "call")).toEqual([]);
    expect(mcpToolItems(run.notifications)).toEqual([
      expect.objectContaining({ id: call.callId, server: "echo", tool: "echo", status: "failed", error: { message: "user rejected MCP tool call" } }),
    ]);
    expect(JSON.stringify(codex.provider.requests[1]?.functionCallOutput(call.callId))).toContain("user rejected MCP tool call");
    expect(run.turn.status).toBe("completed");
    expect(unhandled(diagnostics)).toEqual([]);
  });

  it('approvals "acceptForSession": the tool runs, and codex does not ask again in the session (persist "session")', async () => {
    const first = reply.mcpToolCall("echo", "echo", { text: "hi" });
    const second = reply.mcpToolCall("echo", "echo", { text: "again" });
    const { codex, thread, diagnostics, mcpLog } = await startWithMcp([first, second, reply.text("Echoed twice.")], { approvals: "acceptForSession" });
    const run = await codex.runTurn(thread, "echo twice");

    expect(elicitationRequests(codex)).toHaveLength(1);
    expect(mcpLog().filter((entry) => entry.event === "call")).toEqual([
      { event: "call", tool: "echo", arguments: { text: "hi" } },
      { event: "call", tool: "echo", arguments: { text: "again" } },
    ]);
    expect(mcpToolItems(run.notifications)).toEqual([
      expect.objectContaining({ id: first.callId, status: "completed", result: expect.objectContaining({ content: [{ type: "text", text: "echo: hi" }] }) }),
      expect.objectContaining({ id: second.callId, status: "completed" }),
    ]);
    expect(JSON.stringify(codex.provider.requests[1]?.functionCallOutput(first.callId))).toContain("echo: hi");
    expect(unhandled(diagnostics)).toEqual([]);
  });

  it('a policy callback sees kind mcpElicitation with the tool call; "accept" runs the tool and codex asks again next time', async () => {
    const seen: ApprovalRequest[] = [];
    const first = reply.mcpToolCall("echo", "echo", { text: "hi" });
    const second = reply.mcpToolCall("echo", "echo", { text: "again" });
    const { codex, thread, mcpLog } = await startWithMcp([first, second, reply.text("Done.")], {
      approvals: (request) => (seen.push(request), request.kind === "mcpElicitation" && request.toolCall?.tool === "echo" ? "accept" : "decline"),
    });
    await codex.runTurn(thread, "echo twice");
    expect(seen.map((request) => request.kind === "mcpElicitation" && request.toolCall)).toEqual([
      { server: "echo", tool: "echo", arguments: { text: "hi" } },
      { server: "echo", tool: "echo", arguments: { text: "again" } },
    ]);
    expect(mcpLog().filter((entry) => entry.event === "call")).toHaveLength(2);
  });

  it("an MCP server's own form (elicitation/create, forwarded): declined without `elicitations`, answered with it", async () => {
    // The tool approval is accepted by the policy; the server's own form then asks for a name.
    const declined = await startWithMcp([reply.mcpToolCall("echo", "ask", {}), reply.text("No name.")], { approvals: "acceptForSession" });
    await declined.codex.runTurn(declined.thread, "ask me");
    const forwarded = elicitationRequests(declined.codex)[1]?.params;
    expect(forwarded).toMatchObject({
      serverName: "echo",
      mode: "form",
      _meta: null,
      message: "What is your name?",
      requestedSchema: { properties: { name: { type: "string" } }, required: ["name"] },
    });
    expect(
      declined
        .mcpLog()
        .filter((entry) => entry.event === "elicitation-answer")
        .map((entry) => entry.answer?.result),
    ).toEqual([{ action: "decline" }]);
    await codex?.dispose();
    codex = undefined;

    const call = reply.mcpToolCall("echo", "ask", {});
    const answered = await startWithMcp([call, reply.text("Hello, Ada.")], {
      approvals: "acceptForSession",
      elicitations: (request) =>
        request.mode === "form" && "name" in request.requestedSchema.properties ? { action: "accept", content: { name: "Ada" } } : { action: "decline" },
    });
    await answered.codex.runTurn(answered.thread, "ask me");
    expect(
      answered
        .mcpLog()
        .filter((entry) => entry.event === "elicitation-answer")
        .map((entry) => entry.answer?.result),
    ).toEqual([{ action: "accept", content: { name: "Ada" } }]);
    expect(JSON.stringify(answered.codex.provider.requests[1]?.functionCallOutput(call.callId))).toContain("hello, Ada");
    expect(unhandled(answered.diagnostics)).toEqual([]);
  });
});

describe("user input (request_user_input) against the real codex app-server", () => {
  const QUESTIONS = [
    {
      id: "size",
      header: "Size",
      question: "Which size?",
      options: [
        { label: "Small", description: "Fits." },
        { label: "Large", description: "Roomy." },
      ],
    },
  ];
  const PLAN = { collaborationMode: { mode: "plan", settings: { model: "mock-model" } } } as const;

  it("the userInput option answers; the answer reaches the model", async () => {
    const call = reply.requestUserInput(QUESTIONS);
    const asked: string[] = [];
    codex = await OfflineCodex.start({
      script: [call, reply.text("Large it is.")],
      client: { userInput: ({ questions }) => (asked.push(...questions.map((q) => q.id)), userInputAnswers({ size: "Large" })) },
    });
    const run = await codex.runTurn(await codex.startThread(), "pick a size", PLAN);
    expect(asked).toEqual(["size"]);
    expect(codex.provider.requests[1]?.functionCallOutput(call.callId)).toBe('{"answers":{"size":{"answers":["Large"]}}}');
    expect(run.turn.status).toBe("completed");
  });

  it("without a handler: no answer ({ answers: {} }), the model reads it and the turn goes on", async () => {
    const call = reply.requestUserInput(QUESTIONS);
    codex = await OfflineCodex.start({ script: [call, reply.text("No answer; I will pick small.")] });
    const diagnostics: ConnectionDiagnostic[] = [];
    codex.client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    const run = await codex.runTurn(await codex.startThread(), "pick a size", PLAN);
    expect(codex.serverRequests.map((request) => request.method)).toEqual(["item/tool/requestUserInput"]);
    expect(codex.provider.requests[1]?.functionCallOutput(call.callId)).toBe('{"answers":{}}');
    expect(run.turn.status).toBe("completed");
    expect(run.finalText).toBe("No answer; I will pick small.");
    expect(unhandled(diagnostics)).toEqual([]);
  });
});

describe("ChatGPT token refresh against the real codex app-server", () => {
  /** An unsigned JWT with the claims codex reads (email, plan, account): codex only decodes it. */
  const fakeAccessToken = (n: number) => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const claims = {
      email: "a@example.com",
      exp: 4_102_444_800,
      n,
      "https://api.openai.com/auth": { chatgpt_plan_type: "plus", chatgpt_account_id: "acct_1" },
    };
    return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.sig`;
  };

  /**
   * codex logged in with ChatGPT tokens the client supplies (`account/login/start` type
   * `chatgptAuthTokens`), the mock provider made to want OpenAI auth, and a model that answers 401.
   */
  async function runWithExpiredTokens(client: CodexClientOptions) {
    codex = await OfflineCodex.start({
      script: [reply.httpError(401, { error: { message: "token expired" } }), reply.text("Refreshed.")],
      client,
      args: ["-c", "model_providers.mock.requires_openai_auth=true"],
    });
    const diagnostics: ConnectionDiagnostic[] = [];
    codex.client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    await codex.client.request("account/login/start", {
      type: "chatgptAuthTokens",
      accessToken: fakeAccessToken(1),
      chatgptAccountId: "acct_1",
      chatgptPlanType: null,
    });
    const run = await codex.runTurn(await codex.startThread(), "hello");
    const scripted = codex.provider.requests.filter((request) => request.outcome === "scripted");
    return { codex, run, diagnostics, scripted };
  }

  it("without refreshChatgptAuthTokens: the refresh is refused with -32601, the diagnostic names the option, the turn fails", async () => {
    const { codex, run, diagnostics, scripted } = await runWithExpiredTokens({});
    expect(scripted[0]?.headers.authorization).toBe(`Bearer ${fakeAccessToken(1)}`);
    expect(codex.serverRequests.filter((request) => request.method === "account/chatgptAuthTokens/refresh").map((request) => request.params)).toEqual([
      { reason: "unauthorized", previousAccountId: "acct_1" },
    ]);
    expect(diagnostics.filter((d) => d.kind === "unhandled-server-request").map((d) => d.message)).toEqual([
      expect.stringContaining("refreshChatgptAuthTokens"),
    ]);
    expect(run.turn.status).toBe("failed");
    expect(run.turn.error?.message).toBe("auth refresh request failed: code=-32601");
  });

  it("with refreshChatgptAuthTokens: the hook gets the typed params and codex accepts its answer", async () => {
    const asked: unknown[] = [];
    const { run, diagnostics } = await runWithExpiredTokens({
      refreshChatgptAuthTokens: (params) => (asked.push(params), { accessToken: fakeAccessToken(2), chatgptAccountId: "acct_1", chatgptPlanType: null }),
    });
    expect(asked).toEqual([{ reason: "unauthorized", previousAccountId: "acct_1" }]);
    expect(unhandled(diagnostics)).toEqual([]);
    // Offline, codex 0.169.0 then fails the turn on a ChatGPT backend lookup ("Fatal error: application
    // network policy is unavailable"); what matters here is that the refresh itself was accepted.
    expect(run.turn.error?.message ?? "").not.toContain("auth refresh request failed");
  });
});
