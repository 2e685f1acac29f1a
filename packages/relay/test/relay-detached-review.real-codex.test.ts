// Review 6 F7 against codex 0.160.0 (which still offers `review/start` with `delivery:
// "detached"`: a review on a new thread, named in `reviewThreadId`): the page that asked gets every
// notification codex sends for the review thread, and another page may not read or take it.
// Needs codex 0.160.0 in .codex-versions/ (`node tools/codegen-versions.mjs --versions 0.160.0 --keep`); skipped without it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import type { JsonRpcMessage } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";
import { mkdir } from "node:fs/promises";
import { startRelay } from "../src/index.js";
import { recordingTransport } from "./support/recording-transport.js";
import { connectThroughRelay } from "./support/relay-clients.js";

const CODEX_0160 = fileURLToPath(
  new URL("../../../.codex-versions/0.160.0/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex", import.meta.url),
);
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const threadIdOf = (message: JsonRpcMessage) => (message as { params?: { threadId?: string } }).params?.threadId;

it.skipIf(!existsSync(CODEX_0160))(
  "a detached review's thread is the asking page's (codex 0.160.0)",
  async () => {
    const provider = await MockResponsesProvider.start({ script: [reply.review({ findings: [], correct: true, explanation: "Looks fine." })] });
    const home = await createCodexHome({ provider });
    cleanups.push(async () => (await provider.close(), await home.cleanup()));
    const workspace = join(home.dir, "workspace");
    await mkdir(workspace);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, stdio: "pipe" });
    git("init", "-q");
    await writeFile(join(workspace, "a.txt"), "a\n");
    git("add", ".");
    git("-c", "user.email=r@example.com", "-c", "user.name=r", "commit", "-qm", "init");
    await writeFile(join(workspace, "a.txt"), "b\n");

    const spawned = await spawnCodexAppServer({ codexPath: CODEX_0160, cwd: workspace, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env } });
    const down: JsonRpcMessage[] = [];
    const relay = await startRelay({ upstream: { transport: recordingTransport(spawned, [], down) } });
    cleanups.push(() => relay.close());
    const pageA = await connectThroughRelay(relay.url, { token: relay.token });
    cleanups.push(() => pageA.close());
    const seenByA: JsonRpcMessage[] = [];
    const subscription = pageA.notifications().subscribe((notification) => seenByA.push(notification as JsonRpcMessage));
    cleanups.push(async () => subscription.unsubscribe());
    // A plain thread/start: core's startThread asks for a paginated thread, which 0.160.0 does not review detached.
    const { thread } = (await pageA.requestUntyped("thread/start", { cwd: workspace, approvalPolicy: "never", historyMode: "legacy" })) as {
      thread: { id: string };
    };
    const { reviewThreadId } = (await pageA.requestUntyped("review/start", {
      threadId: thread.id,
      target: { type: "uncommittedChanges" },
      delivery: "detached",
    })) as {
      reviewThreadId: string;
    };
    expect(reviewThreadId).not.toBe(thread.id);
    const reviewDone = () => down.some((message) => "method" in message && message.method === "turn/completed" && threadIdOf(message) === reviewThreadId);
    for (const start = Date.now(); !reviewDone() && Date.now() - start < 30_000; ) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sentForReview = down
      .filter((message) => "method" in message && threadIdOf(message) === reviewThreadId)
      .map((message) => (message as { method: string }).method);
    const aGot = seenByA.filter((message) => threadIdOf(message) === reviewThreadId).map((message) => (message as { method: string }).method);
    expect(sentForReview).toContain("turn/completed");
    expect(aGot).toEqual(sentForReview);

    const pageB = await connectThroughRelay(relay.url, { token: relay.token });
    cleanups.push(() => pageB.close());
    await expect(pageB.requestUntyped("thread/read", { threadId: reviewThreadId, includeTurns: false })).rejects.toMatchObject({ rpcCode: -32003 });
    await expect(pageB.requestUntyped("thread/resume", { threadId: reviewThreadId })).rejects.toMatchObject({ rpcCode: -32003 });
  },
  90_000,
);
