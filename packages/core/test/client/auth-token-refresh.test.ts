import { describe, expect, it } from "vitest";
import type { CodexClientOptions } from "@codex-rpc/core";
import { serverRequestReply } from "../support/server-request-reply.js";

const PARAMS = { reason: "unauthorized", previousAccountId: "acct_1" };

const refresh = (options: CodexClientOptions = {}) => serverRequestReply("account/chatgptAuthTokens/refresh", PARAMS, options);

describe("ChatGPT token refresh (scripted server)", () => {
  it("refuses with -32601 without a hook, and says which option answers it", async () => {
    const { reply, diagnostics } = await refresh();
    expect(reply).toMatchObject({ error: { code: -32601 } });
    expect(diagnostics).toEqual([
      {
        kind: "unhandled-server-request",
        message: expect.stringMatching(/^refused account\/chatgptAuthTokens\/refresh with -32601: .*refreshChatgptAuthTokens/),
      },
    ]);
  });

  it("answers with the hook's tokens, given the typed params", async () => {
    const seen: unknown[] = [];
    const { reply } = await refresh({
      refreshChatgptAuthTokens: (params) => (
        seen.push(params.previousAccountId), { accessToken: "fresh-token", chatgptAccountId: "acct_1", chatgptPlanType: null }
      ),
    });
    expect(seen).toEqual(["acct_1"]);
    expect(reply).toEqual({ result: { accessToken: "fresh-token", chatgptAccountId: "acct_1", chatgptPlanType: null } });
  });

  it.each([
    ["an empty access token", { accessToken: "", chatgptAccountId: "acct_1" }, "accessToken must be a non-empty string"],
    ["no account id", { accessToken: "sk-very-secret-token-value" }, "chatgptAccountId must be a string"],
    ["a plan that is no string", { accessToken: "sk-very-secret-token-value", chatgptAccountId: "a", chatgptPlanType: 3 }, "chatgptPlanType must be"],
    ["no object", "sk-very-secret-token-value", "must return { accessToken"],
  ])("refuses %s with -32603, and no token reaches the reply or the diagnostics", async (_name, result, detail) => {
    const { reply, diagnostics } = await refresh({ refreshChatgptAuthTokens: () => result as never });
    expect(reply).toMatchObject({ error: { code: -32603 } });
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual([expect.stringContaining(detail)]);
    expect(JSON.stringify({ reply, diagnostics })).not.toContain("sk-very-secret-token-value");
  });
});
