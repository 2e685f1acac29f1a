// A turn may spawn a sub-agent (codex 0.169.0 offers the model the `multi_agent_v1` tools by
// default): it runs on a thread of its own, which codex names in the parent's `collabAgentToolCall`
// item (`receiverThreadIds`) and never opens with a request of the page's. Measured: after the
// `spawn_agent` call, codex sends the sub-agent thread's `turn/started`, items and `turn/completed`
// (no `thread/started`), and `thread/loaded/list` holds it. Through the relay it is the page's whose
// turn spawned it: the page gets its notifications, and another page may not take it.
import { afterEach, expect, it } from "vitest";
import type WebSocket from "ws";
import type { JsonRpcMessage } from "@codex-rpc/core";
import { reply } from "@codex-rpc/testing";
import { RelayErrorCode, startRelay } from "../src/index.js";
import { spawnCodexInHome } from "./support/codex-in-home.js";
import { recordingTransport } from "./support/recording-transport.js";
import { call, tryUpgrade } from "./support/relay-clients.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

type Message = { id?: unknown; method?: string; params?: { threadId?: string; item?: { type?: string; receiverThreadIds?: string[] } } };

async function page(url: string, token: string): Promise<{ socket: WebSocket; seen: Message[] }> {
  const outcome = await tryUpgrade(url, { token });
  if (!("socket" in outcome)) throw new Error(`refused: ${outcome.status}`);
  const seen: Message[] = [];
  outcome.socket.on("message", (data) => seen.push(JSON.parse(String(data)) as Message));
  cleanups.push(async () => outcome.socket.close());
  await call(outcome.socket, 0, "initialize", { clientInfo: { name: "page", version: "0" }, capabilities: { experimentalApi: true } });
  return { socket: outcome.socket, seen };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}`);
  }
}

it("a sub-agent spawned by a page's turn is that page's: its notifications reach it, another page cannot resume it", { timeout: 60_000 }, async () => {
  const spawnAgent = reply.functionCall("spawn_agent", { message: "say hi" }, { namespace: "multi_agent_v1" });
  const { provider, home, workspace, spawned } = await spawnCodexInHome([spawnAgent, reply.text("One."), reply.text("Two.")]);
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const relay = await startRelay({ upstream: { transport: spawned } });
  cleanups.push(() => relay.close());
  const a = await page(relay.url, relay.token);
  const b = await page(relay.url, relay.token);

  const started = (await call(a.socket, 1, "thread/start", { cwd: workspace, approvalPolicy: "never" })) as { result: { thread: { id: string } } };
  const parent = started.result.thread.id;
  await call(a.socket, 2, "turn/start", { threadId: parent, input: [{ type: "text", text: "hi", text_elements: [] }] });
  const spawnedIds = () =>
    a.seen.flatMap((message) =>
      message.method === "item/completed" && message.params?.item?.type === "collabAgentToolCall" ? (message.params.item.receiverThreadIds ?? []) : [],
    );
  await until(() => spawnedIds().length > 0, "the spawn_agent item");
  const [child] = spawnedIds();
  expect(child).not.toBe(parent);

  await until(() => a.seen.some((message) => message.method === "turn/completed" && message.params?.threadId === child), "the sub-agent's turn/completed");
  expect(b.seen.filter((message) => message.params?.threadId === child)).toEqual([]);
  expect(((await call(b.socket, 3, "thread/resume", { threadId: child })) as { error?: { code: number } }).error?.code).toBe(RelayErrorCode.threadNotOwned);
  expect(((await call(b.socket, 4, "thread/read", { threadId: child })) as { error?: { code: number } }).error?.code).toBe(RelayErrorCode.threadNotOwned);
});

it("a page that leaves while its sub-agent's turn runs: the relay interrupts the sub-agent's turn too", { timeout: 60_000 }, async () => {
  // Both the parent's next request and the sub-agent's first hang, whichever comes first.
  const spawnAgent = reply.functionCall("spawn_agent", { message: "say hi" }, { namespace: "multi_agent_v1" });
  const { provider, home, workspace, spawned } = await spawnCodexInHome([spawnAgent, reply.hang(), reply.hang()]);
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const down: JsonRpcMessage[] = [];
  const relay = await startRelay({ upstream: { transport: recordingTransport(spawned, [], down) } });
  cleanups.push(() => relay.close());
  const a = await page(relay.url, relay.token);

  const started = (await call(a.socket, 1, "thread/start", { cwd: workspace, approvalPolicy: "never" })) as { result: { thread: { id: string } } };
  const parent = started.result.thread.id;
  await call(a.socket, 2, "turn/start", { threadId: parent, input: [{ type: "text", text: "hi", text_elements: [] }] });
  const completedOn = (thread: string) =>
    down.find((message) => "method" in message && message.method === "turn/completed" && (message.params as { threadId?: string }).threadId === thread) as
      | { params: { turn: { status: string } } }
      | undefined;
  let child: string | undefined;
  await until(() => {
    child = down.flatMap((message) => {
      const item = "method" in message && message.method === "item/completed" ? (message.params as Message["params"])?.item : undefined;
      return item?.type === "collabAgentToolCall" ? (item.receiverThreadIds ?? []) : [];
    })[0];
    return (
      child !== undefined &&
      down.some((message) => "method" in message && message.method === "turn/started" && (message.params as { threadId?: string }).threadId === child)
    );
  }, "the sub-agent's turn/started");
  await provider.waitForRequests(3);

  a.socket.close();
  await until(() => completedOn(child!) !== undefined, "the sub-agent's turn/completed");
  expect(completedOn(child!)?.params.turn.status).toBe("interrupted");
});
