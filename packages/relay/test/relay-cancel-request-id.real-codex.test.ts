// `thread/sample/cancel` names a `thread/sample` by its JSON-RPC id, against codex 0.169.0 through
// the relay: a page's cancel with its own id ends its sample ("sample canceled"); another page
// naming the relay's upstream ids (small numbers, in order) cancels nothing of it.
import { afterEach, expect, it } from "vitest";
import type WebSocket from "ws";
import { reply } from "@codex-rpc/testing";
import { startRelay } from "../src/index.js";
import { spawnCodexInHome } from "./support/codex-in-home.js";
import { call, tryUpgrade } from "./support/relay-clients.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function page(url: string, token: string): Promise<WebSocket> {
  const outcome = await tryUpgrade(url, { token });
  if (!("socket" in outcome)) throw new Error(`refused: ${outcome.status}`);
  cleanups.push(async () => outcome.socket.close());
  await call(outcome.socket, 0, "initialize", { clientInfo: { name: "page", version: "0" }, capabilities: { experimentalApi: true } });
  return outcome.socket;
}

it("thread/sample/cancel cancels the page's own sample, and another page's guesses cancel nothing", { timeout: 60_000 }, async () => {
  const { provider, home, workspace, spawned } = await spawnCodexInHome([reply.text("Hello."), reply.hang()]);
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const relay = await startRelay({ upstream: { transport: spawned } });
  cleanups.push(() => relay.close());
  const a = await page(relay.url, relay.token);
  const b = await page(relay.url, relay.token);

  const started = (await call(a, 1, "thread/start", { cwd: workspace, approvalPolicy: "never" })) as { result: { thread: { id: string } } };
  const threadId = started.result.thread.id;
  const completed = new Promise<void>((resolve) => a.on("message", (data) => String(data).includes('"turn/completed"') && resolve()));
  const turn = (await call(a, 2, "turn/start", { threadId, input: [{ type: "text", text: "hi", text_elements: [] }] })) as {
    result: { turn: { id: string } };
  };
  await completed;
  const sample = call(a, 10, "thread/sample", { threadId, prompt: "x", expectedTurnId: turn.result.turn.id });
  await provider.waitForRequests(2);

  for (let guess = 1; guess <= 30; guess++) await call(b, 100 + guess, "thread/sample/cancel", { requestId: guess });
  const early = await Promise.race([sample, new Promise((resolve) => setTimeout(() => resolve("still running"), 500))]);
  expect(early).toBe("still running");

  expect((await call(a, 11, "thread/sample/cancel", { requestId: 10 })).result).toEqual({});
  expect(((await sample) as { error?: { message?: string } }).error?.message).toBe("sample canceled");
});
