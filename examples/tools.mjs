#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// codex-rpc dynamic tools: a tool declared with a zod schema, offered to the model by a real
// `codex app-server`, called by the model with bad arguments (it reads the validation error) and
// then with good ones (the handler gets them typed). Offline: the bundled mock model plays the
// model's part.
//
//   node examples/tools.mjs      (after `npx -y pnpm@12.21.0 build`)
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { defineTool } from "@codex-rpc/core";
import { connectCodex } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";

/** @param {string} text */
const dim = (text) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[0m` : text);

const forecast = defineTool({
  name: "forecast",
  namespace: { name: "weather", description: "Weather tools." },
  description: "The weather forecast for a city, for 1 to 7 days.",
  schema: z.object({ city: z.string().describe("The city"), days: z.number().int().min(1).max(7).default(1) }),
  // `args` is { city: string; days: number }: inferred from the schema, validated before this runs.
  handler: async (args, { signal }) => {
    signal.throwIfAborted();
    console.log(`handler: forecast(${JSON.stringify(args)})`);
    return `${args.city}: sunny, 21 °C, for the next ${args.days} day${args.days === 1 ? "" : "s"}`;
  },
});

// What the mock model does: call the tool wrongly, then rightly, then answer.
const badCall = reply.toolCall("forecast", { city: 42, days: 0 }, { namespace: "weather" });
const goodCall = reply.toolCall("forecast", { city: "Paris", days: 2 }, { namespace: "weather" });

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  const provider = await MockResponsesProvider.start({ script: [badCall, goodCall, reply.text("It will be sunny in Paris for two days.")] });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-tools-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));

  const client = await connectCodex({ env: home.env, cwd: workspace, tools: [forecast] });
  cleanups.unshift(() => client.close());
  console.log(dim(`connected to ${client.initializeResponse.userAgent}`));

  const thread = await client.startThread({ cwd: workspace });
  const turn = thread.run("What is the weather in Paris for the next two days?");
  turn.items$.subscribe(({ phase, item }) => {
    if (phase === "completed" && item.type === "dynamicToolCall") {
      console.log(`tool call: ${item.namespace}.${item.tool}(${JSON.stringify(item.arguments)}) → ${item.status}`);
    }
  });
  const done = await turn.completed;

  const declared = provider.requests[0]?.tools.find((tool) => tool.name === "weather");
  console.log(`offered to the model: ${JSON.stringify(declared)}`);
  console.log(`the model read after the bad call:\n${provider.requests[1]?.functionCallOutput(badCall.callId)}`);
  console.log(`the model read after the good call: ${provider.requests[2]?.functionCallOutput(goodCall.callId)}`);
  console.log(`codex: ${done.finalText}`);
  console.log(dim(`turn ${done.status}`));
  process.exitCode = done.status === "completed" ? 0 : 1;
} catch (error) {
  console.error(`tools example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}
