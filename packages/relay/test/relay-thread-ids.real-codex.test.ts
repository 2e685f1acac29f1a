import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodexClient, JsonRpcMessage } from "@codex-rpc/core";
import { type MockResponsesProvider, reply, type CodexHome } from "@codex-rpc/testing";
import type WebSocket from "ws";
import { RelayErrorCode, type RelayHandle, startRelay } from "../src/index.js";
import { spawnCodexInHome } from "./support/codex-in-home.js";
import { recordingTransport } from "./support/recording-transport.js";
import { call, connectThroughRelay, tryUpgrade } from "./support/relay-clients.js";

const ORIGIN = "http://localhost:5173";
let provider: MockResponsesProvider;
let home: CodexHome;
let relay: RelayHandle;
let a: CodexClient;
let aThread: { id: string; path: string | null };
const up: JsonRpcMessage[] = [];

beforeAll(async () => {
  let workspace: string;
  let spawned: Awaited<ReturnType<typeof spawnCodexInHome>>["spawned"];
  ({ provider, home, workspace, spawned } = await spawnCodexInHome([reply.text("A's answer")]));
  relay = await startRelay({ upstream: { transport: recordingTransport(spawned, up) }, allowedOrigins: [ORIGIN] });
  a = await connectThroughRelay(relay.url, { token: relay.token, origin: ORIGIN });
  const thread = await a.startThread({ cwd: workspace, approvalPolicy: "never" });
  // A turn, so that the rollout file exists.
  await thread.run("hello").completed;
  const read = await a.request("thread/read", { threadId: thread.id, includeTurns: false });
  aThread = { id: thread.id, path: read.thread.path ?? null };
});

afterAll(async () => {
  await a?.close();
  await relay?.close();
  await provider?.close();
  await home?.cleanup();
});

async function page(): Promise<WebSocket> {
  const outcome = await tryUpgrade(relay.url, { token: relay.token, origin: ORIGIN });
  if (!("socket" in outcome)) throw new Error(`upgrade refused: ${outcome.status}`);
  await call(outcome.socket, 0, "initialize", { clientInfo: { name: "b", version: "0" } });
  outcome.socket.send(JSON.stringify({ method: "initialized" }));
  return outcome.socket;
}

const spellings = (id: string) => ({
  upper: id.toUpperCase(),
  "no hyphens": id.replaceAll("-", ""),
  braces: `{${id}}`,
  "urn:uuid:": `urn:uuid:${id}`,
});

describe("thread ids spelt another way, and rollout paths (issue 15, findings 1 and 2)", () => {
  it("B cannot read, resume or fork A's thread with another spelling of its id", async () => {
    const b = await page();
    let id = 10;
    const answers: Record<string, unknown> = {};
    for (const [name, spelling] of Object.entries(spellings(aThread.id))) {
      for (const method of ["thread/read", "thread/resume", "thread/fork"]) {
        const answer = await call(b, id++, method, { threadId: spelling });
        answers[`${method} ${name}`] = answer.error ?? { threadId: (answer.result as any)?.thread?.id };
      }
    }
    console.log(`B's answers: ${JSON.stringify(answers, null, 1)}`);
    for (const [what, answer] of Object.entries(answers)) expect(answer, what).toMatchObject({ code: RelayErrorCode.threadNotOwned });
    // A still owns its thread: it can read it, and B cannot.
    expect((await a.request("thread/read", { threadId: aThread.id, includeTurns: false })).thread.id).toBe(aThread.id);
    expect((await call(b, id++, "thread/read", { threadId: aThread.id })).error).toMatchObject({ code: RelayErrorCode.threadNotOwned });
    b.close();
  });

  it("B's thread/search leaves out A's thread; A's own search finds it", async () => {
    const b = await page();
    const mine = await a.requestUntyped("thread/search", { searchTerm: "hello" });
    const theirs = await call(b, 1, "thread/search", { searchTerm: "hello" });
    const ids = (result: unknown) => ((result as { data?: { thread: { id: string } }[] } | undefined)?.data ?? []).map((hit) => hit.thread.id);
    console.log(`thread/search "hello": A got ${JSON.stringify(mine).slice(0, 600)}; B got ${JSON.stringify(theirs.result ?? theirs.error)}`);
    expect(ids(mine)).toContain(aThread.id);
    expect(ids(theirs.result)).not.toContain(aThread.id);
    b.close();
  });

  it("B cannot resume or fork A's thread by its rollout path", async () => {
    expect(aThread.path).toEqual(expect.any(String));
    const b = await page();
    const unloaded = "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
    for (const [id, method] of [
      [1, "thread/resume"],
      [2, "thread/fork"],
    ] as const) {
      const answer = await call(b, id, method, { threadId: unloaded, path: aThread.path });
      console.log(`B ${method} by A's rollout path: ${JSON.stringify(answer.error ?? { threadId: (answer.result as any)?.thread?.id })}`);
      expect(answer.error, method).toMatchObject({ code: RelayErrorCode.threadNotOwned });
    }
    expect((await a.request("thread/read", { threadId: aThread.id, includeTurns: false })).thread.id).toBe(aThread.id);
    b.close();
  });
});
