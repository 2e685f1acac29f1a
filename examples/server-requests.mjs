#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// Answering what codex asks the client, offline against the bundled mock model:
//   - a question (`item/tool/requestUserInput`, Plan mode) answered by the `userInput` option;
//   - a command approval answered by an `approvals` callback that picks only among the decisions
//     the server offers (`availableDecisions`);
//   - everything else codex might ask gets the documented default (core's README, "Server requests").
//
//   node examples/server-requests.mjs
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { userInputAnswers } from "@codex-rpc/core";
import { protocol } from "@codex-rpc/protocol/experimental";
import { connectCodex } from "@codex-rpc/stdio";
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-example-"));
  cleanups.unshift(() => rm(workspace, { recursive: true, force: true }));
  // The mock model: first it asks the user a question, then it wants to run a command.
  const provider = await MockResponsesProvider.start({
    script: [
      reply.requestUserInput([
        {
          id: "size",
          header: "Size",
          question: "Which size should the file be?",
          options: [
            { label: "Small", description: "a few bytes" },
            { label: "Large", description: "a kilobyte" },
          ],
        },
      ]),
      reply.execCommand({ cmd: "touch answer.txt", sandbox_permissions: "require_escalated", justification: "Write the file" }),
      reply.text("Done: answer.txt is written."),
    ],
  });
  cleanups.unshift(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.unshift(() => home.cleanup());

  const client = await connectCodex({
    // Plan mode (`collaborationMode`) is in the experimental protocol.
    protocol,
    env: home.env,
    cwd: workspace,
    userInput: ({ questions }) => {
      for (const question of questions) console.log(`question: ${question.question} (${(question.options ?? []).map((o) => o.label).join(" / ")})`);
      console.log("answer: Large");
      return userInputAnswers({ size: "Large" });
    },
    approvals: (request) => {
      if (request.kind !== "commandExecution") return "decline";
      const offered = (request.params.availableDecisions ?? []).filter((decision) => typeof decision === "string");
      console.log(`approval: ${request.params.command} (offered: ${offered.join(", ")})`);
      return offered.includes("accept") ? "accept" : "decline";
    },
  });
  cleanups.unshift(() => client.close());
  const thread = await client.startThread({ cwd: workspace, approvalPolicy: "untrusted" });
  const turn = thread.run("Write a file of the size I choose.", {
    params: { collaborationMode: { mode: "plan", settings: { model: "mock-model" } } },
  });
  const done = await turn.completed;
  console.log(`codex: ${done.finalText}`);
  console.log(`turn ${done.status}`);
  process.exitCode = done.status === "completed" ? 0 : 1;
} catch (error) {
  console.error(`example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}
