#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// codex-rpc thread operations against a real `codex app-server` and the bundled mock model
// (offline): a few turns, then fork, rollback, compact, a code review, name / archive, and the
// paginated listings of threads, turns and items.
//
//   node examples/threads.mjs
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CodexClient } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  const provider = await MockResponsesProvider.start({
    script: [
      reply.text("Paris."), // "What is the capital of France?"
      reply.text("Berlin."), // "And of Germany?"
      reply.text("Rome."), // "And of Italy?"
      reply.text("Madrid, on the fork."), // on the fork: "And of Spain?"
      reply.text("Summary: the user asked for the capitals of France and Germany."), // compaction
      reply.review({
        findings: [
          {
            title: "[P2] Say which city",
            body: "`capital.txt` now says only `capital`; name the city.",
            file: "/workspace/capital.txt",
            lines: { start: 1, end: 1 },
            priority: 2,
          },
        ],
        correct: false,
        explanation: "The change drops the city's name.",
      }),
    ],
  });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());
  const workspace = join(home.dir, "workspace");
  await mkdir(workspace);
  // A git repository with an uncommitted change, for the review.
  const git = (/** @type {string[]} */ ...args) => execFileSync("git", args, { cwd: workspace, stdio: "pipe" });
  git("init", "-q");
  await writeFile(join(workspace, "capital.txt"), "Paris\n");
  git("add", ".");
  git("-c", "user.email=demo@example.com", "-c", "user.name=demo", "commit", "-qm", "init");
  await writeFile(join(workspace, "capital.txt"), "capital\n");

  const client = await CodexClient.connect(await spawnCodexAppServer({ env: home.env, cwd: workspace }));
  cleanups.unshift(() => client.close());

  const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
  for (const question of ["What is the capital of France?", "And of Germany?", "And of Italy?"]) {
    const { finalText } = await thread.run(question).completed;
    console.log(`> ${question}\n${finalText}`);
  }

  // fork: a new thread with the same history; the original does not change.
  const fork = await thread.fork();
  console.log(
    `\nforked ${fork.id === thread.id ? "into the same thread?!" : "into a new thread"} (forkedFromId is the original: ${fork.info.forkedFromId === thread.id})`,
  );
  console.log(`fork: ${(await fork.run("And of Spain?").completed).finalText}`);

  // rollback: the last turn goes (thread/revert before it).
  await thread.rollback(1);
  console.log(`\nafter rollback(1), turns on the original: ${await countTurns(thread)}`);

  // compact: codex runs it as a turn of its own.
  const compaction = await thread.compact().completed;
  console.log(`compaction turn ${compaction.status}: ${compaction.items.map((item) => item.type).join(", ")}`);

  // review: a turn of its own; `review` resolves with the review codex rendered.
  const review = thread.review({ type: "uncommittedChanges" });
  const { status, review: text, reviewed } = await review.review;
  console.log(`\nreview of ${reviewed} ${status}:\n${text}`);

  // name and archive, seen in the listing.
  await thread.setName("Capitals");
  await fork.setName("Capitals (fork)");
  await fork.archive();
  console.log("\nthreads (one per page):");
  for await (const listed of client.threads({ limit: 1 })) console.log(`- ${listed.name ?? "(no name)"}`);
  console.log("archived threads:");
  for await (const listed of client.threads({ archived: true })) console.log(`- ${listed.name ?? "(no name)"}`);

  console.log("\nturns of the original, oldest first (two per page):");
  for await (const turn of thread.turns({ limit: 2, sortDirection: "asc" })) {
    console.log(`- ${turn.status}${turn.rootTurnId && turn.rootTurnId !== turn.id ? " (the reviewer's sub-turn)" : ""}`);
  }
  console.log("its first three items:");
  let shown = 0;
  for await (const { item } of thread.items({ limit: 2 })) {
    console.log(`- ${item.type}${item.type === "agentMessage" ? `: ${item.text}` : ""}`);
    if (++shown === 3) break; // no further page is fetched
  }
} catch (error) {
  console.error(`threads example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}

/** @param {import("@codex-rpc/core").CodexThread} thread */
async function countTurns(thread) {
  let count = 0;
  for await (const _ of thread.turns()) count++;
  return count;
}
