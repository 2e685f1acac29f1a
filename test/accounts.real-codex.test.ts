// Accounts and models through the real codex app-server, offline: API-key login into the temporary
// CODEX_HOME (codex writes auth.json), account/read, logout, model/list paged, a ChatGPT browser
// login started and cancelled (codex 0.169.0 hands out the URL without the network). Device-code
// login needs auth.openai.com (codex asks it for the code): a fake-server test covers it
// (packages/core/test/client/account-api.test.ts), and the core README says how to check it by hand.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ConnectionDiagnostic } from "@codex-rpc/core";
import type { ServerNotification } from "@codex-rpc/protocol";
import { OfflineCodex } from "./support/offline-codex.js";

/** codex answers account/read with `account: null` unless its provider needs OpenAI auth: the mock provider is made to. */
const REQUIRES_OPENAI_AUTH = ["-c", "model_providers.mock.requires_openai_auth=true"];
const FAKE_KEY = "sk-test-codex-rpc-not-a-real-key-0123456789";

let codex: OfflineCodex | undefined;
afterEach(async () => {
  await codex?.dispose();
  codex = undefined;
});

describe("client.account against codex 0.169.0", () => {
  it("logs in with an API key (auth.json written, account/read says apiKey), logs out (auth.json gone); the key is in no diagnostic", async () => {
    codex = await OfflineCodex.start({ args: REQUIRES_OPENAI_AUTH, client: { validate: true } });
    const diagnostics: ConnectionDiagnostic[] = [];
    codex.client.diagnostics$.subscribe((diagnostic) => diagnostics.push(diagnostic));
    const notifications: ServerNotification[] = [];
    codex.client.notifications().subscribe((notification) => notifications.push(notification));

    expect(await codex.client.account.read()).toMatchObject({ account: null, requiresOpenaiAuth: true });
    await codex.client.account.loginWithApiKey(FAKE_KEY);
    expect(existsSync(join(codex.home.dir, "auth.json"))).toBe(true);
    expect(await codex.client.account.read()).toMatchObject({ account: { type: "apiKey" } });
    const loginCompleted = notifications.find((n) => n.method === "account/login/completed");
    expect(loginCompleted?.params).toMatchObject({ loginId: null, success: true, error: null });

    // Rate limits and usage are ChatGPT-account data: with an API key codex refuses them.
    await expect(codex.client.account.rateLimits()).rejects.toMatchObject({
      code: "SERVER_ERROR",
      rpcMessage: "chatgpt authentication required to read rate limits",
    });

    await codex.client.account.logout();
    expect(existsSync(join(codex.home.dir, "auth.json"))).toBe(false);
    expect(await codex.client.account.read()).toMatchObject({ account: null });
    expect(notifications.filter((n) => n.method === "account/updated").map((n) => n.params)).toEqual([
      { authMode: "apikey", planType: null },
      { authMode: null, planType: null },
    ]);
    expect(JSON.stringify(diagnostics)).not.toContain(FAKE_KEY);
  });

  it("without a login, rate limits and usage are refused by codex with -32600", async () => {
    codex = await OfflineCodex.start();
    await expect(codex.client.account.rateLimits()).rejects.toMatchObject({
      rpcCode: -32600,
      rpcMessage: "codex account authentication required to read rate limits",
    });
    await expect(codex.client.account.usage()).rejects.toMatchObject({
      rpcCode: -32600,
      rpcMessage: "codex account authentication required to read token usage",
    });
  });

  it("starts a ChatGPT browser login (the auth URL comes back as data) and cancels it: completed resolves with success false", async () => {
    codex = await OfflineCodex.start();
    const login = await codex.client.account.loginWithChatGpt();
    expect(login.authUrl).toMatch(/^https:\/\/auth\.openai\.com\/oauth\/authorize\?/);
    expect(new URL(login.authUrl).searchParams.get("redirect_uri")).toMatch(/^http:\/\/(127\.0\.0\.1|localhost):\d+\/auth\/callback$/);
    expect(login.loginId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await login.cancel()).toBe("canceled");
    expect(await login.completed).toMatchObject({ loginId: login.loginId, success: false, error: "Login server error: Login was not completed" });
  });

  it("aborting the login's signal cancels it", async () => {
    codex = await OfflineCodex.start();
    const controller = new AbortController();
    const login = await codex.client.account.loginWithChatGpt({ signal: controller.signal });
    controller.abort();
    expect(await login.completed).toMatchObject({ loginId: login.loginId, success: false });
    // Already ended: codex no longer knows it.
    expect(await login.cancel()).toBe("notFound");
  });

  it("device-code login asks auth.openai.com for the code: offline, account/login/start fails with -32603 (online, the code comes back and is cancelled)", async () => {
    codex = await OfflineCodex.start();
    const outcome = await codex.client.account.loginWithDeviceCode().then(
      async (login) => ({ login, cancelled: await login.cancel() }),
      (error: unknown) => ({ error }),
    );
    if ("error" in outcome) {
      expect(outcome.error).toMatchObject({ rpcCode: -32603, rpcMessage: expect.stringContaining("failed to request device code") });
    } else {
      expect(outcome.login).toMatchObject({ verificationUrl: expect.stringMatching(/^https:/), userCode: expect.any(String) });
      expect(outcome.cancelled).toBe("canceled");
    }
  });
});

describe("client.models() against codex 0.169.0", () => {
  it("lists every model, following nextCursor page by page", async () => {
    codex = await OfflineCodex.start({ client: { validate: true } });
    const all = [];
    for await (const model of codex.client.models()) all.push(model);
    const paged = [];
    for await (const model of codex.client.models({ limit: 1 })) paged.push(model);
    expect(all.length).toBeGreaterThan(1);
    expect(paged.map((model) => model.id)).toEqual(all.map((model) => model.id));
    expect(all.filter((model) => model.isDefault)).toHaveLength(1);
  });
});
