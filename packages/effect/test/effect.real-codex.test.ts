// The binding against the real codex 0.169.0 (offline, the scripted mock model): what the issue
// must show, each through the Effect API only.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalDecision } from "@codex-rpc/core";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { isRunning } from "@codex-rpc/test-support/process-tree.js";
import { reply, type ScriptedReply } from "@codex-rpc/testing";
import { Context, Effect, Fiber, Layer, Schema, Stream } from "effect";
import { describe, expect, it } from "vitest";
import { CodexClient, type CodexLayerOptions, defineEffectTool } from "../src/index.js";
import { layerOffline, OfflineCodex } from "../src/testing.js";

const offline = <R = never>(script: readonly ScriptedReply[], options: CodexLayerOptions<R> = {}) =>
  layerOffline({ script, codexPath: pinnedCodexBinary() }, options);

/** A thread in the offline workspace. */
const startThread = (approvalPolicy: "never" | "untrusted" = "never") =>
  Effect.gen(function* () {
    const codex = yield* CodexClient;
    const { workspace } = yield* OfflineCodex;
    return yield* codex.startThread({ cwd: workspace, approvalPolicy });
  });

describe("@codex-rpc/effect against the real codex app-server", () => {
  it("streams a turn's text and events as Streams; runHead takes the first delta and the turn still completes", async () => {
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const thread = yield* startThread();
          const turn = yield* thread.run("Say hello");
          const first = yield* Stream.runHead(turn.text);
          const text = yield* Stream.runCollect(turn.text);
          const completed = yield* turn.completed;
          const methods = yield* Stream.runCollect(Stream.map(turn.events, (event) => event.method));
          return { first, text, completed, methods };
        }),
      ).pipe(Effect.provide(offline([reply.text(["Hel", "lo", "!"])]))),
    );
    expect(result.first._tag).toBe("Some");
    expect(result.text.join("")).toBe("Hello!");
    expect(result.completed).toMatchObject({ status: "completed", finalText: "Hello!" });
    // Measured on codex 0.169.0: the turn's notifications, in order.
    console.log("codex 0.169.0 turn events:", [...new Set(result.methods)].join(", "));
    expect(result.methods[0]).toBe("turn/started");
    expect(result.methods).toContain("item/agentMessage/delta");
    expect(result.methods.at(-1)).toBe("turn/completed");
  });

  it("replayEvents: false: an events run made once text streamed sees the turn from there on (no turn/started); text still replays", async () => {
    const result = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const thread = yield* startThread();
          const turn = yield* thread.run("Say hello", { replayEvents: false });
          const first = yield* Stream.runHead(turn.text);
          const methods = yield* Stream.runCollect(Stream.map(turn.events, (event) => event.method));
          const text = yield* Stream.runCollect(turn.text);
          const completed = yield* turn.completed;
          return { first, methods, text, completed };
        }),
      ).pipe(Effect.provide(offline([reply.text(["Hel", "lo", "!"])]))),
    );
    console.log("codex 0.169.0, events seen by a run made after the first text (replayEvents: false):", result.methods.join(", "));
    expect(result.first._tag).toBe("Some");
    expect(result.methods).not.toContain("turn/started");
    expect(result.methods.at(-1)).toBe("turn/completed");
    expect(result.text.join("")).toBe("Hello!");
    expect(result.completed).toMatchObject({ status: "completed", finalText: "Hello!" });
  });

  it("answers a command approval with an Effect handler that uses a service from the Layer's environment", async () => {
    class ApprovalDesk extends Context.Service<
      ApprovalDesk,
      { readonly decide: (command: string) => Effect.Effect<ApprovalDecision>; readonly asked: string[] }
    >()("test/ApprovalDesk") {}
    const asked: string[] = [];
    const desk = Layer.succeed(ApprovalDesk, {
      asked,
      decide: (command) => Effect.sync(() => (asked.push(command), command.includes("marker") ? "accept" : "decline")),
    });
    const call = reply.execCommand({
      cmd: "touch marker.txt && echo command-ran",
      sandbox_permissions: "require_escalated",
      justification: "Make the marker?",
    });
    const layer = offline([call, reply.text("Done.")], {
      approvals: (request) =>
        Effect.gen(function* () {
          const { decide } = yield* ApprovalDesk;
          return request.kind === "commandExecution" ? yield* decide(String(request.params.command ?? "")) : "decline";
        }),
    }).pipe(Layer.provide(desk));
    const { completed, markerMade } = await Effect.runPromise(
      Effect.gen(function* () {
        const thread = yield* startThread("untrusted");
        const completed = yield* thread.runToEnd("Make the marker file.");
        // Read before the Layer's scope closes: closing it deletes the temporary CODEX_HOME.
        return { completed, markerMade: existsSync(join((yield* OfflineCodex).workspace, "marker.txt")) };
      }).pipe(Effect.provide(layer)),
    );
    console.log("codex 0.169.0 approval asked for:", asked);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("touch marker.txt");
    expect(markerMade).toBe(true);
    const command = completed.items.find((item) => item.type === "commandExecution");
    expect(command).toMatchObject({ status: "completed", exitCode: 0, aggregatedOutput: "command-ran\n" });
  });

  it("answers a dynamic tool declared with an Effect Schema: arguments decoded and typed, output reaches the model", async () => {
    const calls: { city: string; days: number }[] = [];
    const weather = defineEffectTool({
      name: "weather",
      description: "The forecast for a city.",
      schema: Schema.Struct({ city: Schema.String, days: Schema.Number }),
      handler: (args) => Effect.sync(() => (calls.push(args), `${args.city}: sunny for ${args.days} days`)),
    });
    const bad = reply.toolCall("weather", { city: 3, days: 2 });
    const good = reply.toolCall("weather", { city: "Paris", days: 2 });
    const { provider } = await Effect.runPromise(
      Effect.gen(function* () {
        const thread = yield* startThread();
        yield* thread.runToEnd("Weather in Paris?");
        return yield* OfflineCodex;
      }).pipe(Effect.provide(offline([bad, good, reply.text("Sunny.")], { tools: [weather] }))),
    );
    const badOutput = provider.requests[1]?.functionCallOutput(bad.callId);
    console.log("codex 0.169.0 returned to the model for invalid arguments:", badOutput);
    expect(calls).toEqual([{ city: "Paris", days: 2 }]);
    expect(String(badOutput)).toMatch(/city/);
    expect(provider.requests[2]?.functionCallOutput(good.callId)).toEqual(expect.stringContaining("Paris: sunny for 2 days"));
  });

  it("Fiber.interrupt on the fiber awaiting a turn interrupts it on the server: the turn ends interrupted", async () => {
    const { status, lastEvent } = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const thread = yield* startThread();
          const turn = yield* thread.run("Take your time");
          yield* Effect.promise(() => turn.turn.started);
          const fiber = yield* Effect.forkChild(turn.completed);
          yield* Effect.sleep("200 millis");
          yield* Fiber.interrupt(fiber);
          const completed = yield* Effect.promise(() => turn.turn.completed);
          const events = yield* Stream.runCollect(turn.events);
          return { status: completed.status, lastEvent: events.at(-1) };
        }),
      ).pipe(Effect.provide(offline([reply.hang()]))),
    );
    expect(status).toBe("interrupted");
    expect(lastEvent).toMatchObject({ method: "turn/completed", params: { turn: { status: "interrupted" } } });
  });

  it("closing the Layer's scope ends the codex process (checked by PID)", async () => {
    const pid = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(offline([]));
          const { pid } = Context.get(context, OfflineCodex);
          expect(isRunning(pid as number)).toBe(true);
          return pid as number;
        }),
      ),
    );
    expect(isRunning(pid)).toBe(false);
  });

  it("killing the server mid-turn fails the turn with ConnectionClosed (signal SIGKILL)", async () => {
    const error = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { pid } = yield* OfflineCodex;
          const thread = yield* startThread();
          const turn = yield* thread.run("Hang on");
          yield* Effect.promise(() => turn.turn.started);
          process.kill(pid as number, "SIGKILL");
          return yield* Effect.flip(turn.completed);
        }),
      ).pipe(Effect.provide(offline([reply.hang()]))),
    );
    expect(error._tag).toBe("ConnectionClosed");
    if (error._tag === "ConnectionClosed") expect([error.reason, error.signal]).toEqual(["exit", "SIGKILL"]);
  });
});
