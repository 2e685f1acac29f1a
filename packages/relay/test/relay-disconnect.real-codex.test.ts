// A page that leaves mid-turn, against the real codex 0.169.0 (mock model that never answers, so
// the turn runs until something stops it): the relay interrupts the turn and unsubscribes the
// thread, and what codex answers and sends is logged. Also what codex's lists hold, and what the
// relay lets a page see of them.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import type { JsonRpcMessage } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";
import { startRelay } from "../src/index.js";
import { recordingTransport } from "./support/recording-transport.js";
import { connectThroughRelay } from "./support/relay-clients.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const isMethod = (method: string) => (message: JsonRpcMessage) => "method" in message && message.method === method;
/** A notification `method` about `threadId`. */
const about = (method: string, threadId: string) => (message: JsonRpcMessage) =>
  isMethod(method)(message) && (message as { params?: { threadId?: unknown } }).params?.threadId === threadId;

it("a page gone mid-turn: the relay interrupts its turn and unsubscribes its thread; codex ends the turn as interrupted", async () => {
  const provider = await MockResponsesProvider.start({ script: [reply.hang(), reply.text("B's answer")] });
  const home = await createCodexHome({ provider });
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const workspace = join(home.dir, "workspace");
  await mkdir(workspace);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env };
  const up: JsonRpcMessage[] = [];
  const down: JsonRpcMessage[] = [];
  const log: string[] = [];
  const spawned = await spawnCodexAppServer({ codexPath: pinnedCodexBinary(), cwd: workspace, env });
  const relay = await startRelay({ upstream: { transport: recordingTransport(spawned, up, down) }, log: (line) => log.push(line) });
  cleanups.push(() => relay.close());

  const pageA = await connectThroughRelay(relay.url, { token: relay.token });
  const pageB = await connectThroughRelay(relay.url, { token: relay.token });
  cleanups.push(async () => void (await pageB.close()));
  const threadA = await pageA.startThread({ cwd: workspace, approvalPolicy: "never" });
  const threadB = await pageB.startThread({ cwd: workspace, approvalPolicy: "never" });
  const turnA = threadA.run("never answered");
  await turnA.started;
  await until(() => provider.requests.length >= 1, "codex to ask the model");

  // What codex lists, and what each page is shown.
  const loadedUpstream = await pageA.request("thread/loaded/list", {});
  expect(loadedUpstream.data).toEqual([threadA.id]);
  const listed = await pageB.request("thread/list", {});
  expect(listed.data.map((thread) => thread.id)).not.toContain(threadA.id);
  const loadedAnswer = down.filter((m) => "result" in m && Array.isArray((m.result as { data?: unknown }).data)).map((m) => (m as { result: unknown }).result);
  console.log(`codex's own thread/loaded/list: ${JSON.stringify(loadedAnswer[0])}; page A was shown ${JSON.stringify(loadedUpstream.data)}`);

  const sentBefore = up.length;
  const downBefore = down.length;
  await pageA.close();
  await until(() => log.some((line) => line.startsWith("unsubscribed thread")), "the unsubscribe answer");
  const cleanup = up.slice(sentBefore).map((m) => ({ method: (m as { method?: string }).method, params: (m as { params?: unknown }).params }));
  expect(cleanup).toEqual([
    { method: "turn/interrupt", params: { threadId: threadA.id, turnId: expect.any(String) } },
    { method: "thread/unsubscribe", params: { threadId: threadA.id } },
  ]);
  const completed = down.find(about("turn/completed", threadA.id)) as {
    params: { turn: { status: string; error: unknown } };
  };
  expect(completed.params.turn.status).toBe("interrupted");
  const afterLeave = down.slice(downBefore).map((m) => ("method" in m ? m.method : `answer ${JSON.stringify(m)}`));
  console.log(`after page A left: the relay sent ${cleanup.map((m) => m.method).join(", ")}; codex sent ${afterLeave.join(", ")}`);
  console.log(`relay log: ${log.filter((line) => /interrupted|unsubscribed/.test(line)).join(" | ")}`);

  // Page B is untouched and its thread still runs turns. Measured: codex keeps A's thread loaded
  // right after the unsubscribe (it unloads idle threads later); page B is shown only its own.
  expect((await threadB.run("B").completed).finalText).toBe("B's answer");
  const from = up.length;
  const shownToB = await pageB.request("thread/loaded/list", {});
  const id = (up.slice(from).find(isMethod("thread/loaded/list")) as { id: number }).id;
  const loadedAfter = (down.find((m) => "id" in m && m.id === id && "result" in m) as { result: { data: string[] } }).result.data;
  console.log(
    `codex's thread/loaded/list after the unsubscribe: ${JSON.stringify(loadedAfter)} (A's thread still loaded: ${loadedAfter.includes(threadA.id)})`,
  );
  expect(shownToB.data).toEqual([threadB.id]);
});
