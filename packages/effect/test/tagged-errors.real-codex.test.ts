// Tagged errors produced for real against codex 0.169.0 (offline), matched with Effect.catchTag,
// and CODEX_PATH read through a ConfigProvider.
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { ConfigProvider, Effect, Fiber, Layer, Stream } from "effect";
import { describe, expect, it } from "vitest";
import { CodexClient } from "../src/index.js";
import { layerNodeConfig } from "../src/node.js";
import { layerOffline, OfflineCodex } from "../src/testing.js";

const offline = () => layerOffline({ script: [reply.hang()], codexPath: pinnedCodexBinary() });

describe("tagged errors from the real codex", () => {
  it("SIGTERM mid-turn: turn.completed fails with ConnectionClosed (exit details), caught by tag", async () => {
    const caught = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { pid, workspace } = yield* OfflineCodex;
          const thread = yield* (yield* CodexClient).startThread({ cwd: workspace, approvalPolicy: "never" });
          const turn = yield* thread.run("Hang on");
          yield* Effect.promise(() => turn.turn.started);
          process.kill(pid as number, "SIGTERM");
          yield* turn.completed;
          return "completed" as const;
        }),
      ).pipe(
        Effect.catchTag("ConnectionClosed", (error) => Effect.succeed({ reason: error.reason, exitCode: error.exitCode, signal: error.signal })),
        Effect.provide(offline()),
      ),
    );
    console.log("codex 0.169.0 on SIGTERM mid-turn:", caught);
    expect(caught).not.toBe("completed");
    expect(caught).toMatchObject({ reason: "exit" });
  });

  it("codex killed while idle: a running notifications Stream fails with ConnectionClosed", async () => {
    const caught = await Effect.runPromise(
      Effect.gen(function* () {
        const { pid } = yield* OfflineCodex;
        const codex = yield* CodexClient;
        const fiber = yield* Effect.forkChild(Stream.runDrain(codex.notifications("turn/completed")), { startImmediately: true });
        process.kill(pid as number, "SIGKILL");
        return yield* Fiber.join(fiber).pipe(
          Effect.as("ended" as const),
          Effect.catchTag("ConnectionClosed", (error) => Effect.succeed(error.signal)),
        );
      }).pipe(Effect.provide(offline())),
    );
    expect(caught).toBe("SIGKILL");
  });

  it("a request past its Duration timeout is RequestTimeout; interrupting one leaves nothing pending", async () => {
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const codex = yield* CodexClient;
        const timedOut = yield* codex.request("thread/start", {}, { timeout: "1 millis" }).pipe(
          Effect.as("answered" as const),
          Effect.catchTag("RequestTimeout", (error) => Effect.succeed(`${error.method} ${error.timeoutMs}`)),
        );
        const fiber = yield* Effect.forkChild(codex.request("model/list", {}), { startImmediately: true });
        yield* Fiber.interrupt(fiber);
        const after = yield* codex.request("model/list", {});
        return { timedOut, after: Array.isArray(after.data) };
      }).pipe(Effect.provide(offline())),
    );
    expect(result).toEqual({ timedOut: "thread/start 1", after: true });
  });

  it("layerNodeConfig takes CODEX_PATH from the ConfigProvider; a bad one is BinaryNotFound, caught by tag", async () => {
    const provider = await MockResponsesProvider.start();
    const home = await createCodexHome({ provider });
    // CODEX_BIN would win over the search only; CODEX_PATH is the binding's own setting.
    const spawn = { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env } };
    const withPath = (path: string) => layerNodeConfig(spawn).pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ CODEX_PATH: path }))));
    try {
      const version = await Effect.runPromise(
        Effect.map(CodexClient, (codex) => codex.client.serverVersion).pipe(Effect.provide(withPath(pinnedCodexBinary()))),
      );
      expect(version).toBe("0.169.0");
      const missing = await Effect.runPromise(
        Effect.as(CodexClient, "built" as const).pipe(
          Effect.provide(withPath("/nonexistent/codex")),
          Effect.catchTag("BinaryNotFound", (error) => Effect.succeed(error.code)),
        ),
      );
      expect(missing).toBe("BINARY_NOT_FOUND");
    } finally {
      await provider.close();
      await home.cleanup();
    }
  });
});
