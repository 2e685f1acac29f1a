#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// Operations on turns, against a real `codex app-server` and the bundled mock model (offline):
//
//   node examples/turns.mjs
//
// 1. steer: while codex waits for a command approval, more input is added to the running turn
//    (`turn.steer`); the model reads it at its next request, in the same turn.
// 2. structured output: `outputSchema` (here a hand-written Standard Schema; a zod ≥ 4.2 schema works
//    the same) is sent to the model, and `completed.output` is the answer parsed and typed.
// 3. token usage: `completed.usage` is the turn's last `thread/tokenUsage/updated`.
// 4. two `run()` calls on one thread: the second waits until the first completed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CodexClient } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";

/** @typedef {{ city: string; celsius: number }} Forecast */
const FORECAST_JSON_SCHEMA = {
  type: "object",
  properties: { city: { type: "string" }, celsius: { type: "number" } },
  required: ["city", "celsius"],
  additionalProperties: false,
};
/**
 * A Standard Schema (https://standardschema.dev) with its JSON Schema converter, written by hand.
 * @type {import("@codex-rpc/core").StandardSchemaV1<unknown, Forecast> & import("@codex-rpc/core").StandardJSONSchemaV1<unknown, Forecast>}
 */
const Forecast = {
  "~standard": {
    version: 1,
    vendor: "example",
    validate: (value) => {
      const record = /** @type {Partial<Forecast> | null} */ (value);
      return typeof record?.city === "string" && typeof record.celsius === "number"
        ? { value: { city: record.city, celsius: record.celsius } }
        : { issues: [{ message: "expected { city: string, celsius: number }" }] };
    },
    jsonSchema: { input: () => FORECAST_JSON_SCHEMA, output: () => FORECAST_JSON_SCHEMA },
  },
};

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-turns-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  const provider = await MockResponsesProvider.start({
    script: [
      // 1. The model wants to run a command (codex asks for approval), then answers the steered input.
      reply.execCommand({ cmd: "rm -rf build", sandbox_permissions: "require_escalated", justification: "Clean the build" }),
      reply.text("Understood: I left the build folder alone.", { chunks: 4 }),
      // 2. A JSON answer for the outputSchema turn, with token counts.
      reply.text('{"city":"Paris","celsius":21}', { chunks: 3, usage: { inputTokens: 1200, outputTokens: 12, cachedInputTokens: 1000 } }),
      // 4. One answer per queued turn.
      reply.text("First answer."),
      reply.text("Second answer."),
    ],
  });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());

  /** @type {import("@codex-rpc/core").CodexTurn | undefined} */
  let steerable;
  const client = await CodexClient.connect(await spawnCodexAppServer({ env: home.env, cwd: workspace }), {
    clientInfo: { name: "codex-rpc-turns-example", title: "codex-rpc turns example", version: "0.1.0" },
    // While codex waits for this approval the turn is running: steer it, then decline the command.
    approvals: async (request) => {
      console.log(`approval requested: ${request.kind === "commandExecution" ? request.params.command : request.kind}`);
      const steered = await steerable?.steer("Actually, do not delete anything; just say so.");
      console.log(`steered turn ${steered?.turnId === steerable?.id ? "(the running one)" : "?"}: "Actually, do not delete anything; just say so."`);
      return /** @type {const} */ ("decline");
    },
  });
  cleanups.unshift(() => client.close());
  const thread = await client.startThread({ cwd: workspace, approvalPolicy: "untrusted" });

  // 1. steer
  steerable = thread.run("Clean up the build output.");
  const steered = await steerable.completed;
  const said = steered.items.flatMap((item) => (item.type === "userMessage" ? item.content.flatMap((part) => (part.type === "text" ? [part.text] : [])) : []));
  console.log(`user messages in the turn: ${said.map((text) => JSON.stringify(text)).join(", ")}`);
  console.log(`codex: ${steered.finalText}`);

  // 2. structured output, 3. token usage
  const forecast = await thread.run("What is the weather in Paris? Answer as JSON.", { outputSchema: Forecast }).completed;
  if (forecast.output) console.log(`output: ${forecast.output.city}, ${forecast.output.celsius} °C`);
  else console.log(`no output: ${forecast.outputError?.message}`);
  const usage = forecast.usage;
  if (usage)
    console.log(
      `usage: last response ${usage.last.inputTokens} in (${usage.last.cachedInputTokens} cached), ${usage.last.outputTokens} out; thread total ${usage.total.totalTokens}`,
    );

  // 4. two turns at once on one thread: the second waits for the first.
  const first = thread.run("First question");
  const second = thread.run("Second question");
  void first.completed.then((done) => console.log(`first turn ${done.status}: ${done.finalText}`));
  void second.started.then(() => console.log("second turn started"));
  const done = await second.completed;
  console.log(`second turn ${done.status}: ${done.finalText}`);
  process.exitCode = done.status === "completed" && forecast.output ? 0 : 1;
} catch (error) {
  console.error(`turns example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}
