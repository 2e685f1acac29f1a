#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// A model that reasons before it answers, against a real `codex app-server` and the bundled mock
// model (offline):
//
//   node examples/reasoning.mjs
//
// The mock model streams a reasoning item (`reply.text(…, { reasoning })` of @codex-rpc/testing):
// a raw reasoning text and a two-part summary, then the answer. Codex forwards them as
// `item/reasoning/textDelta`, `item/reasoning/summaryPartAdded` and `item/reasoning/summaryTextDelta`
// notifications, then completes a `reasoning` item with the whole summary and text.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CodexClient } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-reasoning-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  const provider = await MockResponsesProvider.start({
    script: [
      reply.text("Use a Map: lookups stay O(1) as the cache grows.", {
        chunks: 3,
        reasoning: {
          text: "The cache is read on every request, so the lookup cost matters more than memory.",
          summary: ["**Weighing the options**", "A Map keeps lookups constant-time."],
          chunks: 4,
        },
      }),
    ],
  });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());

  const client = await CodexClient.connect(await spawnCodexAppServer({ env: home.env, cwd: workspace }), {
    clientInfo: { name: "codex-rpc-reasoning-example", title: "codex-rpc reasoning example", version: "0.1.0" },
  });
  cleanups.unshift(() => client.close());
  const thread = await client.startThread({ cwd: workspace });

  const turn = thread.run("Which structure should the cache use?");
  /** @type {Record<string, number>} */
  const counts = {};
  // The summary as it streams, one line per part, as a UI would show it.
  turn.events$.subscribe((event) => {
    if (event.method.startsWith("item/reasoning/")) counts[event.method] = (counts[event.method] ?? 0) + 1;
    if (event.method === "item/reasoning/summaryPartAdded") process.stdout.write(`${event.params.summaryIndex === 0 ? "" : "\n"}thinking: `);
    if (event.method === "item/reasoning/summaryTextDelta") process.stdout.write(event.params.delta);
  });
  const done = await turn.completed;
  process.stdout.write("\n");
  for (const [method, count] of Object.entries(counts)) console.log(`${method}: ${count}`);
  for (const item of done.items) {
    if (item.type !== "reasoning") continue;
    console.log(`reasoning text: ${item.content.join("")}`);
    for (const [index, part] of item.summary.entries()) console.log(`summary ${index}: ${part}`);
  }
  console.log(`codex: ${done.finalText}`);
  process.exitCode = done.status === "completed" ? 0 : 1;
} catch (error) {
  console.error(`reasoning example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}
