// Server requests through the relay, against the real codex 0.169.0 (mock model): an approval goes
// to the page that owns the thread and its answer back; when that page has gone, the relay answers
// with core's decline default and the turn still ends.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { createCodexHome, MockResponsesProvider, reply, type ScriptedReply } from "@codex-rpc/testing";
import { startRelay } from "../src/index.js";
import { recordingTransport } from "./support/recording-transport.js";
import { connectThroughRelay } from "./support/relay-clients.js";

const ORIGIN = "http://localhost:5173";
const APPROVAL = "item/commandExecution/requestApproval";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function relayWithScript(script: readonly ScriptedReply[]) {
  const provider = await MockResponsesProvider.start({ script });
  const home = await createCodexHome({ provider });
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const workspace = join(home.dir, "workspace");
  await mkdir(workspace);
  const up: JsonRpcMessage[] = [];
  const down: JsonRpcMessage[] = [];
  const spawned = await spawnCodexAppServer({
    codexPath: pinnedCodexBinary(),
    cwd: workspace,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env },
  });
  const relay = await startRelay({ upstream: { transport: recordingTransport(spawned, up, down) }, allowedOrigins: [ORIGIN] });
  cleanups.push(() => relay.close());
  return { relay, workspace, up, down };
}

const commandTurn = (): ScriptedReply[] => [
  reply.execCommand({ cmd: "echo relayed", sandbox_permissions: "require_escalated", justification: "Say it through the relay" }),
  reply.text("Done."),
];

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("server requests through the relay", () => {
  it("an approval reaches the page that owns the thread, and its answer reaches codex", async () => {
    const { relay, workspace, down } = await relayWithScript(commandTurn());
    const asked: string[] = [];
    const page = await connectThroughRelay(
      relay.url,
      { token: relay.token, origin: ORIGIN },
      {
        approvals: (request) => {
          asked.push(request.method);
          return "accept";
        },
      },
    );
    cleanups.push(async () => void (await page.close()));
    const bystander = await connectThroughRelay(relay.url, { token: relay.token, origin: ORIGIN }, { approvals: () => "accept" });
    cleanups.push(async () => void (await bystander.close()));
    const thread = await page.startThread({ cwd: workspace, approvalPolicy: "untrusted" });
    const completed = await thread.run("Run it").completed;
    expect(asked).toEqual([APPROVAL]);
    const command = completed.items.find((item) => item.type === "commandExecution") as { status: string; aggregatedOutput: string | null };
    expect(command.status).toBe("completed");
    expect(command.aggregatedOutput).toContain("relayed");
    const approval = down.find((message) => "method" in message && message.method === APPROVAL) as { id: unknown; params: Record<string, unknown> };
    console.log(
      `codex 0.169.0 ${APPROVAL} through the relay: id ${JSON.stringify(approval.id)}, params keys ${Object.keys(approval.params).sort().join(", ")}`,
    );
  });

  it("the owner gone while codex waits for its approval: the relay declines it and the turn ends", async () => {
    const { relay, workspace, up, down } = await relayWithScript(commandTurn());
    let markAsked!: () => void;
    const asked = new Promise<void>((resolve) => (markAsked = resolve));
    const page = await connectThroughRelay(
      relay.url,
      { token: relay.token, origin: ORIGIN },
      {
        approvals: () => {
          markAsked();
          return new Promise(() => {}); // the page never answers: its tab is closed instead
        },
      },
    );
    const thread = await page.startThread({ cwd: workspace, approvalPolicy: "untrusted" });
    void thread.run("Run it").completed.catch(() => {});
    await asked;
    await page.close();

    const approval = down.find((message) => "method" in message && message.method === APPROVAL) as { id: number | string };
    await until(() => down.some((message) => "method" in message && message.method === "turn/completed"), "turn/completed");
    const answer = up.find((message) => "id" in message && message.id === approval.id && !("method" in message));
    expect(answer).toEqual({ id: approval.id, result: { decision: "decline" } });
    const completed = down.find((message) => "method" in message && message.method === "turn/completed") as {
      params: { threadId: string; turn: { status: string } };
    };
    expect(completed.params.threadId).toBe(thread.id);
    const declined = down.find(
      (message) =>
        "method" in message && message.method === "item/completed" && (message.params as { item: { type: string } }).item.type === "commandExecution",
    ) as { params: { item: { status: string } } };
    console.log(`owner gone: relay answered ${JSON.stringify(answer)}; command item ${declined?.params.item.status}; turn ${completed.params.turn.status}`);
    expect(declined.params.item.status).toBe("declined");
  });
});
