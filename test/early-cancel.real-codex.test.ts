// Cancelling a turn early, against the real codex app-server (offline, mock model): codex answers
// `turn/start` before it has begun the turn, and refuses a `turn/interrupt` that arrives in
// between (-32600 "no active turn to interrupt", measured on 0.160.0, 0.165.0 and 0.169.0); the
// turn then runs on. Each way to cancel must still stop it before its command runs, and the
// thread's next turn must be a turn of its own (codex folds a `turn/start` on a busy thread into
// the running turn).
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CodexClient, type CodexTurn } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";
import { pinnedCodexBinary } from "./support/pinned-codex.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A client of the real app-server whose model runs `touch ran.txt`, then answers. */
async function codexThatTouches(...answers: string[]) {
  const provider = await MockResponsesProvider.start({ script: [reply.execCommand({ cmd: "touch ran.txt" }), ...answers.map((text) => reply.text(text))] });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-early-cancel-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  const transport = await spawnCodexAppServer({ codexPath: pinnedCodexBinary(), cwd: workspace, env: { PATH: process.env.PATH ?? "", ...home.env } });
  const client = await CodexClient.connect(transport);
  cleanups.push(() => client.close());
  const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never", sandbox: "workspace-write" });
  return { client, thread, provider, ran: () => existsSync(join(workspace, "ran.txt")) };
}

/** How the turn ended: its status, or its error's code. */
const outcomeOf = (turn: CodexTurn) =>
  turn.completed.then(
    (completed) => completed.status,
    (error: { code?: string }) => error.code,
  );

/** Long enough for a turn that was not stopped to have run its command. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_500));

describe("a turn cancelled before codex began it (real codex)", () => {
  it("a signal aborted before run(): nothing is sent, `completed` rejects with REQUEST_ABORTED", async () => {
    const { thread, provider, ran } = await codexThatTouches("done");
    const controller = new AbortController();
    controller.abort();
    const turn = thread.run("touch it", { signal: controller.signal });
    expect(await outcomeOf(turn)).toBe("REQUEST_ABORTED");
    await expect(turn.started).rejects.toMatchObject({ code: "REQUEST_ABORTED", method: "turn/start" });
    await settle();
    expect({ modelRequests: provider.requests.length, ran: ran() }).toEqual({ modelRequests: 0, ran: false });
  });

  it.each([
    ["the signal aborted in the tick run() returns", (_turn: CodexTurn, controller: AbortController) => controller.abort()],
    [
      "the signal aborted once `started` resolved",
      async (turn: CodexTurn, controller: AbortController) => {
        await turn.started;
        controller.abort();
      },
    ],
    [
      "interrupt() once `started` resolved",
      async (turn: CodexTurn) => {
        await turn.started;
        await turn.interrupt();
      },
    ],
  ])("%s: the turn ends `interrupted` and its command never runs", async (_name, cancel) => {
    const { thread, ran } = await codexThatTouches("done");
    const controller = new AbortController();
    const turn = thread.run("touch it", { signal: controller.signal });
    await cancel(turn, controller);
    expect(await outcomeOf(turn)).toBe("interrupted");
    await settle();
    expect(ran()).toBe(false);
  });

  it("turnTimeoutMs that fires before codex began the turn: TURN_TIMEOUT, the command never runs, the next turn is its own", async () => {
    const { thread, ran } = await codexThatTouches("first answer", "second answer");
    const turn = thread.run("touch it", { turnTimeoutMs: 1 });
    expect(await outcomeOf(turn)).toBe("TURN_TIMEOUT");
    await settle();
    expect(ran()).toBe(false);
    // The mock model's script is the thread's: the next turn gets the command the first never ran.
    const next = thread.run("something else");
    const nextCompleted = await next.completed;
    expect(await next.started).not.toBe(await turn.started);
    expect(nextCompleted.status).toBe("completed");
  });

  it("after an early abort the thread's next turn is a turn of its own, with its own prompt", async () => {
    const { thread } = await codexThatTouches("first answer", "second answer");
    const controller = new AbortController();
    const cancelled = thread.run("touch it", { signal: controller.signal });
    controller.abort();
    expect(await outcomeOf(cancelled)).toBe("interrupted");
    const next = thread.run("something else");
    const completed = await next.completed;
    expect(await next.started).not.toBe(await cancelled.started);
    expect(completed.status).toBe("completed");
    // Folded into the cancelled turn, its prompt would be in no item of its own turn.
    expect(completed.items.some((item) => item.type === "userMessage" && JSON.stringify(item).includes("something else"))).toBe(true);
  });
});
