// @codex-rpc/effect/deno: Layers that spawn `codex app-server` with @codex-rpc/deno (the same
// shutdown sequence and binary search as every runtime package; see /node).
import { spawnCodexAppServer } from "@codex-rpc/deno";
import type { LayerOptions } from "./codex-client.js";
import type { EffectTool } from "./tools.js";
import { layerSpawn, layerSpawnConfig, type SpawnOptions } from "./spawn-layer.js";

export type { SpawnOptions } from "./spawn-layer.js";

/** Spawns the server on Deno: closing the Layer's scope closes the client and ends the process. */
export const layerDeno = <
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

/** `layerDeno` with `codexPath` from Config (`CODEX_PATH`) when the spawn options name none. */
export const layerDenoConfig = <
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
