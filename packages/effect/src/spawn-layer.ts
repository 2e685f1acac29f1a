// The Layer every runtime's spawning entry (/node, /deno, /bun) builds on: one runtime package's
// `spawnCodexAppServer` (they share core's SpawnCodexAppServerOptions), scoped like `layer`.
import type { Transport } from "@codex-rpc/core";
import type { SpawnCodexAppServerOptions } from "@codex-rpc/core/process";
import { Effect, Layer, Option, type Scope } from "effect";
import { type CodexClient, type Connect, type LayerOptions, layer } from "./codex-client.js";
import { codexSettings } from "./config.js";
import { acquireTransport } from "./acquire-transport.js";
import type { CodexError } from "./errors.js";
import type { ServicesOf } from "./server-requests.js";
import type { EffectTool } from "./tools.js";

/** Spawn options; `signal` is the fiber's interruption here. */
export type SpawnOptions = Omit<SpawnCodexAppServerOptions, "signal">;
/** A runtime package's `spawnCodexAppServer` (@codex-rpc/stdio, @codex-rpc/deno, @codex-rpc/bun). */
export type SpawnServer = (options: SpawnCodexAppServerOptions) => Promise<Transport>;

/** Spawns the server with `spawn`: closing the Layer's scope closes the client and ends the process. */
export function layerSpawn<
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
>(
  spawn: SpawnServer,
  spawnOptions: SpawnOptions = {},
  options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {},
): Layer.Layer<CodexClient, CodexError, ServicesOf<RA, RE, RU, RF, RH, Tools>> {
  return layer<RA, RE, RU, RF, RH, Tools, CodexError, Scope.Scope>(spawned(spawn, spawnOptions, options.reconnect), options);
}

/**
 * What a spawning Layer connects with: one process, held by the Layer's scope; with `reconnect`, a
 * function core calls for each (re)start (as connectCodex does), the running process ended by the
 * client's close. Core refuses `reconnect` with a single transport (a TypeError: a defect).
 */
export function spawned(spawn: SpawnServer, spawnOptions: SpawnOptions, reconnect: unknown): Connect<CodexError, Scope.Scope> {
  return reconnect ? Effect.succeed(() => spawn(spawnOptions)) : acquireTransport(() => spawn(spawnOptions));
}

/** `layerSpawn` with `codexPath` from Config (`CODEX_PATH`) when the spawn options name none. */
export function layerSpawnConfig<
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
>(spawn: SpawnServer, spawnOptions: SpawnOptions = {}, options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {}) {
  return Layer.unwrap(
    Effect.map(codexSettings, ({ codexPath }) =>
      layerSpawn<RA, RE, RU, RF, RH, Tools>(
        spawn,
        { ...Option.match(codexPath, { onNone: () => ({}), onSome: (path) => ({ codexPath: path }) }), ...spawnOptions },
        options,
      ),
    ),
  );
}

/**
 * A runtime entry's two Layers over its package's `spawnCodexAppServer`: `layer` (`layerNode`,
 * `layerDeno`, `layerBun`) and `layerConfig` (the same, `codexPath` from Config).
 */
export function runtimeLayers(spawn: SpawnServer) {
  return {
    layer: <RA = never, RE = never, RU = never, RF = never, RH = never, Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[]>(
      spawnOptions: SpawnOptions = {},
      options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {},
    ) => layerSpawn<RA, RE, RU, RF, RH, Tools>(spawn, spawnOptions, options),
    layerConfig: <RA = never, RE = never, RU = never, RF = never, RH = never, Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[]>(
      spawnOptions: SpawnOptions = {},
      options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {},
    ) => layerSpawnConfig<RA, RE, RU, RF, RH, Tools>(spawn, spawnOptions, options),
  };
}
