import { describe, expect, it } from "vitest";
import { CodexClient, type Transport } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

const KEY = "plain-key-no-pattern-would-catch";

describe("client.account (scripted server)", () => {
  it("device-code login: the URL and code come back as data; completion is matched by loginId, even when it arrives before the reply", async () => {
    const { server, client } = await connect();
    server.respond("account/login/start", () => {
      // Another login's completion, then this one's, both before the reply.
      server.notify("account/login/completed", { loginId: "other", success: false, error: "x", onboardingEntrypoint: null });
      server.notify("account/login/completed", { loginId: "L1", success: true, error: null, onboardingEntrypoint: null });
      return { result: { type: "chatgptDeviceCode", loginId: "L1", verificationUrl: "https://example.test/device", userCode: "ABCD-1234" } };
    });
    const login = await client.account.loginWithDeviceCode();
    expect(login).toMatchObject({ loginId: "L1", verificationUrl: "https://example.test/device", userCode: "ABCD-1234" });
    expect(await login.completed).toEqual({ loginId: "L1", success: true, error: null, onboardingEntrypoint: null });
    expect(server.received.find((m) => "method" in m && m.method === "account/login/start")).toMatchObject({ params: { type: "chatgptDeviceCode" } });
    await client.close();
  });

  it("ChatGPT login: aborting the signal sends account/login/cancel; completed resolves with the server's failure", async () => {
    const { server, client } = await connect();
    server.respond("account/login/start", () => ({ result: { type: "chatgpt", loginId: "L2", authUrl: "https://auth.example.test/x" } }));
    server.respond("account/login/cancel", (params) => {
      setTimeout(() => server.notify("account/login/completed", { loginId: "L2", success: false, error: "cancelled", onboardingEntrypoint: null }), 1);
      return { result: { status: "canceled", seen: params } };
    });
    const controller = new AbortController();
    const login = await client.account.loginWithChatGpt({ signal: controller.signal });
    expect(login.authUrl).toBe("https://auth.example.test/x");
    controller.abort();
    expect(await login.completed).toMatchObject({ loginId: "L2", success: false, error: "cancelled" });
    expect(server.received.find((m) => "method" in m && m.method === "account/login/cancel")).toMatchObject({ params: { loginId: "L2" } });
    await client.close();
  });

  it("completed rejects with ConnectionClosedError when the connection ends first", async () => {
    const { server, client } = await connect();
    server.respond("account/login/start", () => ({ result: { type: "chatgpt", loginId: "L3", authUrl: "https://a.test" } }));
    const login = await client.account.loginWithChatGpt();
    server.crash({ exitCode: 1 });
    await expect(login.completed).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("completed rejects with ConnectionClosedError when the connection drops and the client reconnects (the login is gone)", async () => {
    const servers: FakeAppServer[] = [];
    const factory = async (): Promise<Transport> => {
      const server = new FakeAppServer();
      server.respond("account/login/start", () => ({ result: { type: "chatgpt", loginId: "L4", authUrl: "https://a.test" } }));
      servers.push(server);
      return server.transport;
    };
    const client = await CodexClient.connect(factory, { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } });
    const login = await client.account.loginWithChatGpt();
    servers[0]!.crash();
    await expect(login.completed).rejects.toMatchObject({ code: "CONNECTION_CLOSED", method: "account/login/start" });
    await client.close();
  });

  it("a reply without loginId is a ProtocolError; an aborted signal sends nothing", async () => {
    const { server, client } = await connect();
    server.respond("account/login/start", () => ({ result: { type: "chatgpt" } }));
    await expect(client.account.loginWithChatGpt()).rejects.toMatchObject({ code: "PROTOCOL_ERROR" });
    const before = server.received.length;
    await expect(client.account.loginWithChatGpt({ signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "REQUEST_ABORTED" });
    expect(server.received.length).toBe(before);
    await client.close();
  });

  it("an API key the server echoes in its error is not in the error (message, rpcMessage, data, stack)", async () => {
    const { server, client } = await connect();
    server.respond("account/login/start", (params) => ({
      error: { code: -32600, message: `bad key ${(params as { apiKey: string }).apiKey}`, data: { got: params } },
    }));
    const error = await client.account.loginWithApiKey(KEY).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "SERVER_ERROR", rpcMessage: "bad key [REDACTED]" });
    const text = JSON.stringify({ ...(error as object), message: (error as Error).message, stack: (error as Error).stack });
    expect(text).not.toContain(KEY);
    await client.close();
  });

  it("read, rateLimits, usage and logout send their methods and return the results", async () => {
    const { server, client } = await connect();
    server.respond("account/read", () => ({ result: { account: { type: "apiKey" }, requiresOpenaiAuth: true, userId: null } }));
    server.respond("account/rateLimits/read", () => ({ result: { rateLimits: { primary: null } } }));
    server.respond("account/usage/read", (params) => ({ result: { echoed: params } }));
    server.respond("account/logout", () => ({ result: {} }));
    expect((await client.account.read()).account).toEqual({ type: "apiKey" });
    expect(await client.account.rateLimits()).toMatchObject({ rateLimits: { primary: null } });
    expect(await client.account.usage({ threadId: "t1" })).toEqual({ echoed: { threadId: "t1" } });
    await client.account.logout();
    expect(server.received.flatMap((m) => ("method" in m ? [m.method] : []))).toEqual(
      expect.arrayContaining(["account/read", "account/rateLimits/read", "account/usage/read", "account/logout"]),
    );
    await client.close();
  });
});
