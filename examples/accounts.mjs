#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// codex-rpc accounts and models: model/list paged, the account read, an API-key login and logout,
// and a ChatGPT browser login started (its URL printed) and cancelled.
//
//   node examples/accounts.mjs                    offline: a throwaway CODEX_HOME and the bundled mock
//                                                 model provider; the API key is a fake one
//   node examples/accounts.mjs --real             your own codex (~/.codex): models, account, rate limits
//   node examples/accounts.mjs --real --chatgpt   also logs you in with ChatGPT: open the printed URL;
//   node examples/accounts.mjs --real --device    or with a device code (printed with its URL)
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CodexClient } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome } from "@codex-rpc/testing";

const { values } = parseArgs({
  options: { real: { type: "boolean", default: false }, chatgpt: { type: "boolean", default: false }, device: { type: "boolean", default: false } },
});

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-accounts-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  /** @type {Record<string, string | undefined>} */
  let env = {};
  /** @type {string[]} */
  let args = [];
  if (!values.real) {
    const provider = await MockResponsesProvider.start({ script: [] });
    cleanups.push(() => provider.close());
    const home = await createCodexHome({ provider });
    cleanups.push(() => home.cleanup());
    env = home.env;
    // The mock provider needs no login; made to require OpenAI auth, codex reports the account it has.
    args = ["-c", "model_providers.mock.requires_openai_auth=true"];
  }
  const client = await CodexClient.connect(await spawnCodexAppServer({ env, args, cwd: workspace }), {
    clientInfo: { name: "codex-rpc-accounts", title: "codex-rpc accounts example", version: "0.1.0" },
  });
  cleanups.unshift(() => client.close());

  const models = [];
  for await (const model of client.models({ limit: 2 })) models.push(model);
  console.log(`models: ${models.map((model) => `${model.id}${model.isDefault ? " (default)" : ""}`).join(", ")}`);

  const before = await client.account.read();
  console.log(`account: ${before.account ? before.account.type : "none"} (requires OpenAI auth: ${before.requiresOpenaiAuth})`);

  if (values.real) {
    const limits = await client.account.rateLimits().catch((/** @type {Error} */ error) => error);
    console.log(limits instanceof Error ? `rate limits: ${limits.message}` : `rate limits: ${JSON.stringify(limits.rateLimits)}`);
    if (values.chatgpt || values.device) {
      const login = values.device ? await client.account.loginWithDeviceCode() : await client.account.loginWithChatGpt();
      if ("userCode" in login) console.log(`open ${login.verificationUrl} and enter ${login.userCode}`);
      else console.log(`open ${login.authUrl}`);
      const done = await login.completed;
      console.log(done.success ? "logged in" : `login failed: ${done.error}`);
    }
  } else {
    await client.account.loginWithApiKey("sk-example-not-a-real-key-0000000000");
    console.log(`after API-key login: ${(await client.account.read()).account?.type}`);
    await client.account.logout();
    console.log(`after logout: ${(await client.account.read()).account?.type ?? "none"}`);

    const login = await client.account.loginWithChatGpt();
    console.log(`ChatGPT login URL: ${new URL(login.authUrl).origin}${new URL(login.authUrl).pathname} (login ${login.loginId.slice(0, 8)}…)`);
    console.log(`cancel: ${await login.cancel()}`);
    const done = await login.completed;
    console.log(`login completed: success ${done.success}, ${done.error}`);
  }
} catch (error) {
  console.error(`accounts example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}
