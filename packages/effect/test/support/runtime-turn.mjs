// One Effect program run under Node 22, Deno or Bun (runtimes.runtime.test.ts): the runtime's
// spawning Layer from Config (CODEX_PATH), a turn's text as a Stream, the turn's end; prints one
// JSON line. The environment gives CODEX_HOME (the mock model's), WORKSPACE and EFFECT_RUNTIME.
import process from "node:process";
import { CodexClient } from "@codex-rpc/effect";
import { Effect, Stream } from "effect";

const runtime = process.env.EFFECT_RUNTIME;
const layer =
  runtime === "deno"
    ? (await import("@codex-rpc/effect/deno")).layerDenoConfig()
    : runtime === "bun"
      ? (await import("@codex-rpc/effect/bun")).layerBunConfig()
      : (await import("@codex-rpc/effect/node")).layerNodeConfig();

const program = Effect.gen(function* () {
  const codex = yield* CodexClient;
  const thread = yield* codex.startThread({ cwd: process.env.WORKSPACE, approvalPolicy: "never" });
  const turn = yield* thread.run("Say hello");
  const text = yield* Stream.runCollect(turn.text);
  const completed = yield* turn.completed;
  return { text: text.join(""), status: completed.status };
}).pipe(Effect.scoped, Effect.provide(layer));

const result = await Effect.runPromise(program);
console.log(JSON.stringify({ runtime, ...result }));
