#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// codex-rpc in Effect style (@codex-rpc/effect): the CodexClient service from a scoped Layer, a
// turn's text as a Stream, an approval answered by an Effect that uses a service of the app, a
// dynamic tool declared with an Effect Schema, and errors matched by tag.
//
//   node examples/effect/turn.mjs    offline: the real codex app-server with the bundled mock model,
//                                    which asks to run `ls -1`, then calls the weather tool, then answers
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CodexClient, defineEffectTool } from "@codex-rpc/effect";
import { layerNode } from "@codex-rpc/effect/node";
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";
import { Console, Context, Effect, Layer, Schema, Stream } from "effect";

/** The app's own rule for commands, a service the approval handler needs. */
/** @type {Context.Service<"CommandPolicy", { readonly allows: (command: string) => boolean }>} */
const CommandPolicy = Context.Service("example/CommandPolicy");
const commandPolicy = Layer.succeed(CommandPolicy, { allows: (command) => command.includes("ls -1") });

/** Where the offline codex runs: the mock model, a temporary CODEX_HOME and a workspace (all gone when the scope closes). */
/** @type {Context.Service<"Offline", { readonly env: Readonly<Record<string, string>>, readonly workspace: string }>} */
const Offline = Context.Service("example/Offline");
const offline = Layer.effect(
  Offline,
  Effect.gen(function* () {
    const provider = yield* Effect.acquireRelease(
      Effect.promise(() =>
        MockResponsesProvider.start({
          script: [
            reply.execCommand({ cmd: "ls -1", sandbox_permissions: "require_escalated", justification: "List the workspace" }),
            reply.toolCall("weather", { city: "Paris", days: 2 }),
            reply.text("The workspace holds README.md, and Paris will be sunny for two days.", { chunks: 8 }),
          ],
        }),
      ),
      (started) => Effect.promise(() => started.close()),
    );
    const home = yield* Effect.acquireRelease(
      Effect.promise(() => createCodexHome({ provider })),
      (created) => Effect.promise(() => created.cleanup()),
    );
    const workspace = join(home.dir, "workspace");
    yield* Effect.promise(() => mkdir(workspace).then(() => writeFile(join(workspace, "README.md"), "# A workspace\n")));
    return { env: home.env, workspace };
  }),
);

const weather = defineEffectTool({
  name: "weather",
  description: "The forecast for a city.",
  schema: Schema.Struct({ city: Schema.String, days: Schema.Int }),
  // `args` is { city: string; days: number }, decoded by the schema; invalid calls never get here.
  handler: ({ city, days }) => Effect.as(Console.log(`tool: weather(${city}, ${days})`), `${city}: sunny for ${days} days`),
});

// The CodexClient service: codex spawned on Node, closed (process ended) when the program's scope closes.
const codexLayer = Layer.unwrap(
  Effect.map(Effect.service(Offline), ({ env, workspace }) =>
    layerNode(
      { env, cwd: workspace },
      {
        approvals: (request) =>
          Effect.gen(function* () {
            const policy = yield* CommandPolicy;
            const command = request.kind === "commandExecution" ? String(request.params.command ?? "") : "";
            const decision = policy.allows(command) ? "accept" : "decline";
            yield* Console.log(`approval: ${command} → ${decision}`);
            return decision;
          }),
        tools: [weather],
      },
    ),
  ),
).pipe(Layer.provideMerge(offline), Layer.provide(commandPolicy));

const program = Effect.gen(function* () {
  const codex = yield* CodexClient;
  const { workspace } = yield* Offline;
  const thread = yield* codex.startThread({ cwd: workspace, approvalPolicy: "untrusted" });
  const turn = yield* thread.run("What is in this workspace, and what is the weather in Paris?");
  // The text as it streams; a Stream.take here would stop reading, not the turn.
  const text = yield* Stream.runFold(
    turn.text,
    () => "",
    (all, delta) => all + delta,
  );
  const completed = yield* turn.completed;
  yield* Console.log(`codex: ${text}`);
  yield* Console.log(`turn ${completed.status}; ${completed.items.length} items`);
}).pipe(
  Effect.scoped,
  Effect.catchTag("ConnectionClosed", (error) => Console.error(`codex went away: ${error.message}`)),
  Effect.catchTag("RequestTimeout", (error) => Console.error(`${error.method} got no reply in ${error.timeoutMs} ms`)),
);

await Effect.runPromise(Effect.provide(program, codexLayer));
