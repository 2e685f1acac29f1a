// @codex-rpc/effect/node: Layers that spawn `codex app-server` with @codex-rpc/stdio. Effect's
// own child-process module is not used: @codex-rpc/stdio already owns the shutdown sequence
// (end stdin, SIGTERM, SIGKILL), the stderr tail and the binary search core's errors report.
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import type { LayerOptions } from "./codex-client.js";
import type { EffectTool } from "./tools.js";
import { layerSpawn, layerSpawnConfig, type SpawnOptions } from "./spawn-layer.js";

export type { SpawnOptions } from "./spawn-layer.js";

/** Spawns the server on Node: closing the Layer's scope closes the client and ends the process. */
export const layerNode = <
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

/** `layerNode` with `codexPath` from Config (`CODEX_PATH`) when the spawn options name none. */
export const layerNodeConfig = <
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
