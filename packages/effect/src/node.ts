// @codex-rpc/effect/node: Layers that spawn `codex app-server` with @codex-rpc/stdio. Effect's
// own child-process module is not used: @codex-rpc/stdio already owns the shutdown sequence
// (end stdin, SIGTERM, SIGKILL), the stderr tail and the binary search core's errors report.
import { spawnCodexAppServer, type SpawnCodexAppServerOptions } from "@codex-rpc/stdio";
import { Effect, Layer, Option } from "effect";
import { type CodexClient, type CodexLayerOptions, layer } from "./codex-client.js";
import { codexSettings } from "./config.js";
import { type CodexError, fromPromise } from "./errors.js";

/** Spawn options; `signal` is the fiber's interruption here. */
export type NodeSpawnOptions = Omit<SpawnCodexAppServerOptions, "signal">;

/** Spawns the server: closing the Layer's scope closes the client and ends the process. */
export function layerNode<R = never>(spawn: NodeSpawnOptions = {}, options: CodexLayerOptions<R> = {}): Layer.Layer<CodexClient, CodexError, R> {
  return layer(
    fromPromise((signal) => spawnCodexAppServer({ ...spawn, signal })),
    options,
  );
}

/** `layerNode` with `codexPath` from Config (`CODEX_PATH`) when the spawn options name none. */
export function layerNodeConfig<R = never>(spawn: NodeSpawnOptions = {}, options: CodexLayerOptions<R> = {}) {
  return Layer.unwrap(
    Effect.map(codexSettings, ({ codexPath }) =>
      layerNode({ ...Option.match(codexPath, { onNone: () => ({}), onSome: (path) => ({ codexPath: path }) }), ...spawn }, options),
    ),
  );
}
