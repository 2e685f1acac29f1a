// @codex-rpc/effect/bun: Layers that spawn `codex app-server` with @codex-rpc/bun (the same
// shutdown sequence and binary search as every runtime package; see /node).
import { spawnCodexAppServer } from "@codex-rpc/bun";
import type { LayerOptions } from "./codex-client.js";
import type { EffectTool } from "./tools.js";
import { layerSpawn, layerSpawnConfig, type SpawnOptions } from "./spawn-layer.js";

export type { SpawnOptions } from "./spawn-layer.js";

/** Spawns the server on Bun: closing the Layer's scope closes the client and ends the process. */
export const layerBun = <
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
>(
  spawn: SpawnOptions = {},
  options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {},
) => layerSpawn<RA, RE, RU, RF, RH, Tools>(spawnCodexAppServer, spawn, options);

/** `layerBun` with `codexPath` from Config (`CODEX_PATH`) when the spawn options name none. */
export const layerBunConfig = <
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
>(
  spawn: SpawnOptions = {},
  options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {},
) => layerSpawnConfig<RA, RE, RU, RF, RH, Tools>(spawnCodexAppServer, spawn, options);
