// @codex-rpc/effect/websocket against a real `codex app-server --listen ws://127.0.0.1:0` (codex
// 0.169.0, the mock model): the URL from Effect's Config, a turn streamed, and the Layer's scope
// closing the socket while the listening server keeps running (it is not ours to end).
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { CodexClient } from "@codex-rpc/effect";
import { layerWebSocketConfig } from "@codex-rpc/effect/websocket";
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";
import { ConfigProvider, Effect, Stream } from "effect";
import { describe, expect, it } from "vitest";
import { startListeningAppServer } from "./conformance/listening-app-server.js";
import { pinnedCodexBinary } from "./support/pinned-codex.js";

describe("@codex-rpc/effect/websocket against the real codex app-server", () => {
  it("connects to the URL from Config, streams a turn, and closing the scope closes the client", async () => {
    const provider = await MockResponsesProvider.start({ script: [reply.text(["Over ", "the socket"])] });
    const home = await createCodexHome({ provider });
    const workspace = join(home.dir, "workspace");
    await mkdir(workspace);
    const server = await startListeningAppServer({
      codexPath: pinnedCodexBinary(),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env },
      cwd: workspace,
      listen: "ws",
    });
    try {
      const { text, status, client } = await Effect.runPromise(
        Effect.gen(function* () {
          const codex = yield* CodexClient;
          const thread = yield* codex.startThread({ cwd: workspace, approvalPolicy: "never" });
          const turn = yield* thread.run("Say it over the socket");
          const text = yield* Stream.runCollect(turn.text);
          const { status } = yield* turn.completed;
          return { text: text.join(""), status, client: codex.client };
        }).pipe(
          Effect.scoped,
          Effect.provide(layerWebSocketConfig()),
          Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ CODEX_APP_SERVER_URL: server.url as string }))),
        ),
      );
      expect({ text, status }).toEqual({ text: "Over the socket", status: "completed" });
      expect(client.state).toBe("closed");
      process.kill(server.pid, 0); // still listening: the Layer closed its socket only
    } finally {
      await server.stop();
      await provider.close();
      await home.cleanup();
    }
  });
});
