// Thread operations through the real codex app-server (0.169.0) and the mock model: fork, revert /
// rollback and compact observed through `thread/read`, a review turn completing with the review
// codex rendered from the reviewer's JSON, name / archive / unarchive seen in `thread/list`, and
// the listings (threads, turns, items) paged lazily with a small limit.
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CodexThread } from "@codex-rpc/core";
import { reply, type ScriptedReply } from "@codex-rpc/testing";
import { OfflineCodex } from "./support/offline-codex.js";

let codex: OfflineCodex | undefined;
afterEach(async () => {
  await codex?.dispose();
  codex = undefined;
});

async function start(script: readonly ScriptedReply[]): Promise<OfflineCodex> {
  codex = await OfflineCodex.start({ script });
  return codex;
}

/** Runs one turn per text to its end. */
async function runTurns(thread: CodexThread, ...texts: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const text of texts) {
    const done = await thread.run(text).completed;
    expect(done.status).toBe("completed");
    ids.push(done.id);
  }
  return ids;
}

/** The user texts of a thread's turns, read back with `thread/read` (includeTurns). */
async function userTexts(thread: CodexThread): Promise<string[]> {
  const { thread: read } = await thread.read(true);
  return read.turns.flatMap((turn) =>
    turn.items.flatMap((item) => (item.type === "userMessage" ? item.content.flatMap((part) => (part.type === "text" ? [part.text] : [])) : [])),
  );
}

function requested(codex: OfflineCodex, method: string) {
  return codex.clientRequests.filter((request) => request.method === method);
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const entry of iterable) all.push(entry);
  return all;
}

describe("thread operations (real codex app-server)", () => {
  it("fork: a new thread with the history (thread/read shows it), forkedFromId set, its next turn sends that history to the model", async () => {
    const codex = await start([reply.text("one!"), reply.text("two!"), reply.text("on the fork"), reply.text("partial fork")]);
    const thread = await codex.startThread();
    const [first] = await runTurns(thread, "first", "second");
    const fork = await thread.fork();
    expect(fork.id).not.toBe(thread.id);
    expect(fork.info).toMatchObject({ forkedFromId: thread.id, turns: [] }); // excludeTurns: true by default
    expect(requested(codex, "thread/fork")[0]?.params).toMatchObject({ threadId: thread.id, excludeTurns: true, approvalPolicy: "untrusted" });
    expect(await userTexts(fork)).toEqual(["first", "second"]);

    expect((await fork.run("third, on the fork").completed).finalText).toBe("on the fork");
    expect(codex.provider.requests[2]?.userTexts()).toEqual(expect.arrayContaining(["first", "second", "third, on the fork"]));
    // The original thread did not change.
    expect(await userTexts(thread)).toEqual(["first", "second"]);

    // Forking through a turn keeps that turn and the ones before it.
    const partial = await codex.client.forkThread(thread.id, { lastTurnId: first! });
    expect(await userTexts(partial)).toEqual(["first"]);
  });

  it("revert and rollback: the dropped turns are gone from thread/read and from what the model sees next", async () => {
    const codex = await start([reply.text("a"), reply.text("b"), reply.text("c"), reply.text("d"), reply.text("e")]);
    const thread = await codex.startThread();
    const [, second] = await runTurns(thread, "one", "two", "three");
    const rolledBack = await thread.rollback();
    expect(rolledBack.thread.id).toBe(thread.id);
    expect(await userTexts(thread)).toEqual(["one", "two"]);
    expect(requested(codex, "thread/revert").at(-1)?.params).toMatchObject({ threadId: thread.id });

    const reverted = await thread.revert(second!);
    expect(reverted.turnsBackwardsCursor === null || typeof reverted.turnsBackwardsCursor === "string").toBe(true);
    expect(await userTexts(thread)).toEqual(["one"]);

    await runTurns(thread, "four");
    const texts = codex.provider.requests.at(-1)?.userTexts() ?? [];
    expect(texts).toContain("one");
    expect(texts).toContain("four");
    expect(texts).not.toContain("two");
    expect(texts).not.toContain("three");

    await expect(thread.rollback(5)).rejects.toThrow(RangeError);
    await expect(thread.revert("no-such-turn")).rejects.toMatchObject({ code: "SERVER_ERROR", rpcMessage: expect.stringContaining("turn not found") });
  });

  it("compact: runs as a turn of its own (a contextCompaction item) that thread/read shows; the model wrote the summary the next turn starts from", async () => {
    const codex = await start([reply.text("hello"), reply.text("SUMMARY: the user said hi."), reply.text("after compaction")]);
    const thread = await codex.startThread();
    await runTurns(thread, "hi");
    const compaction = thread.compact();
    const done = await compaction.completed;
    expect(done.status).toBe("completed");
    expect(done.items.map((item) => item.type)).toEqual(["contextCompaction"]);
    expect(compaction.id).toBe(done.id);
    // codex asked the model for a handoff summary.
    expect(codex.provider.requests[1]?.userTexts().at(-1)).toContain("CONTEXT CHECKPOINT COMPACTION");

    const { thread: read } = await thread.read(true);
    expect(read.turns.map((turn) => turn.items.map((item) => item.type))).toEqual([["userMessage", "agentMessage"], ["contextCompaction"]]);
    expect(read.turns[1]?.id).toBe(done.id);

    await runTurns(thread, "and now?");
    expect(codex.provider.requests[2]?.rawBody).toContain("SUMMARY: the user said hi.");
  });

  it("review: a turn of its own that completes with the review codex rendered from the reviewer's JSON findings", async () => {
    const finding = {
      title: "[P1] Keep the greeting",
      body: "The change removes the only line of `hello.txt`.",
      file: "/workspace/hello.txt",
      lines: { start: 1, end: 1 },
      priority: 1,
    };
    const codex = await start([reply.review({ findings: [finding], correct: false, explanation: "The greeting is gone." })]);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: codex.workspace, stdio: "pipe" });
    git("init", "-q");
    await writeFile(join(codex.workspace, "hello.txt"), "hello\n");
    git("add", ".");
    git("-c", "user.email=test@example.com", "-c", "user.name=test", "commit", "-qm", "init");
    await writeFile(join(codex.workspace, "hello.txt"), "");

    const thread = await codex.startThread();
    const turn = thread.review({ type: "uncommittedChanges" });
    const itemTypes: string[] = [];
    turn.items$.subscribe(({ phase, item }) => phase === "completed" && itemTypes.push(item.type));
    const text: string[] = [];
    turn.text$.subscribe((piece) => text.push(piece));
    const done = await turn.review;
    expect(done.status).toBe("completed");
    expect(done.reviewed).toBe("current changes");
    expect(done.review).toBe(
      "The greeting is gone.\n\nReview comment:\n\n- [P1] Keep the greeting — /workspace/hello.txt:1-1\n  The change removes the only line of `hello.txt`.",
    );
    expect(done.finalText).toBe(done.review);
    // codex sends the closing agentMessage whole (no delta): text$ still has it.
    expect(text.join("")).toBe(done.review);
    expect(itemTypes).toEqual(["enteredReviewMode", "userMessage", "exitedReviewMode", "agentMessage"]);
    // The reviewer's own message only started: codex never completes it.
    expect(done.incompleteItemIds).toHaveLength(1);
    expect(requested(codex, "review/start")[0]?.params).toEqual({ threadId: thread.id, target: { type: "uncommittedChanges" } });
    // The reviewer got codex's review prompt, which asks for that JSON.
    expect(codex.provider.requests[0]?.rawBody).toContain("overall_correctness");
    expect(codex.provider.requests[0]?.userTexts().at(-1)).toContain("Review the current code changes");

    const { thread: read } = await thread.read(true);
    const last = read.turns.at(-1);
    expect(last?.id).toBe(done.id);
    expect(last?.items.find((item) => item.type === "exitedReviewMode")).toMatchObject({ review: done.review });

    // codex lists the review as two turns (the reviewer's sub-turn, stored as interrupted, then the
    // review turn, one rootTurnId); rollback(1) takes both away.
    const listed = await collect(thread.turns({ sortDirection: "asc" }));
    expect(listed.map((turn) => [turn.status, turn.rootTurnId === done.id])).toEqual([
      ["interrupted", true],
      ["completed", true],
    ]);
    await expect(thread.revert(done.id)).rejects.toMatchObject({ rpcMessage: expect.stringContaining("does not have a persisted start boundary") });
    await thread.rollback(1);
    expect((await thread.read(true)).thread.turns).toEqual([]);
  });

  it("name, archive and unarchive: seen through thread/list", async () => {
    const codex = await start([reply.text("stored")]);
    const thread = await codex.startThread();
    await runTurns(thread, "keep me");
    await thread.setName("Release notes");
    const listed = async (archived: boolean) => (await collect(codex.client.threads({ archived }))).filter((t) => t.id === thread.id);
    expect(await listed(false)).toEqual([expect.objectContaining({ name: "Release notes" })]);

    await thread.archive();
    expect(await listed(false)).toEqual([]);
    expect(await listed(true)).toEqual([expect.objectContaining({ id: thread.id, name: "Release notes" })]);

    const { thread: back } = await thread.unarchive();
    expect(back).toMatchObject({ id: thread.id, status: { type: "notLoaded" } });
    expect(await listed(false)).toHaveLength(1);
    expect(await listed(true)).toEqual([]);
  });

  it("threads() lists a reverted thread once, where codex 0.169.0's thread/list lists it twice (one entry per rollout file)", async () => {
    const codex = await start([reply.text("a"), reply.text("b"), reply.text("c")]);
    const thread = await codex.startThread();
    await runTurns(thread, "one");
    // After a revert, the next turn writes a new rollout file named by the second it is written in;
    // in a later second than the original's, thread/list (which scans the files) shows both.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await runTurns(thread, "two");
    await thread.rollback();
    await runTurns(thread, "three");
    const raw = (await codex.client.request("thread/list", {})).data.filter((t) => t.id === thread.id);
    expect(raw).toHaveLength(2);
    expect(new Set(raw.map((t) => t.path)).size).toBe(2);
    const listed = (await collect(codex.client.threads())).filter((t) => t.id === thread.id);
    expect(listed).toHaveLength(1);
  });

  it("listings: threads, turns and items page lazily with a small limit", async () => {
    const codex = await start([reply.text("r1"), reply.text("r2"), reply.text("r3"), reply.text("t2"), reply.text("t3")]);
    const threads: CodexThread[] = [];
    for (const text of ["alpha", "beta", "gamma"]) {
      const thread = await codex.startThread();
      await runTurns(thread, text);
      threads.push(thread);
    }
    const before = requested(codex, "thread/list").length;
    const all = await collect(codex.client.threads({ limit: 1 }));
    expect(all.map((t) => t.id)).toEqual(threads.map((t) => t.id).reverse()); // newest first
    const pages = requested(codex, "thread/list").slice(before);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.map((page) => (page.params as { limit?: number }).limit)).toEqual(pages.map(() => 1));
    expect(pages.slice(1).every((page) => typeof (page.params as { cursor?: unknown }).cursor === "string")).toBe(true);

    // A break fetches no further page.
    const lazyBefore = requested(codex, "thread/list").length;
    for await (const first of codex.client.threads({ limit: 1 })) {
      expect(first.id).toBe(threads[2]!.id);
      break;
    }
    expect(requested(codex, "thread/list").length - lazyBefore).toBe(1);

    const thread = threads[0]!;
    await runTurns(thread, "second", "third");
    const turns = await collect(thread.turns({ limit: 2 }));
    expect(turns.map((turn) => turn.status)).toEqual(["completed", "completed", "completed"]);
    expect(requested(codex, "thread/turns/list").length).toBe(2);
    const ascending = await collect(thread.turns({ limit: 2, sortDirection: "asc" }));
    expect(ascending.map((turn) => turn.id)).toEqual(turns.map((turn) => turn.id).reverse());

    const items = await collect(thread.items({ limit: 2 }));
    expect(items.map((entry) => entry.item.type)).toEqual(["userMessage", "agentMessage", "userMessage", "agentMessage", "userMessage", "agentMessage"]);
    expect(items.map((entry) => entry.turnId)).toEqual(ascending.flatMap((turn) => [turn.id, turn.id]));

    // Aborting stops the listing with RequestAbortedError.
    const controller = new AbortController();
    const aborted = (async () => {
      for await (const _ of thread.items({ limit: 1 }, { signal: controller.signal })) controller.abort();
    })();
    await expect(aborted).rejects.toMatchObject({ code: "REQUEST_ABORTED" });
  });
});
