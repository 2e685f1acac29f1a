// @codex-rpc/effect/deno: Layers that spawn `codex app-server` with @codex-rpc/deno (the same
// shutdown sequence and binary search as every runtime package; see /node).
import { spawnCodexAppServer } from "@codex-rpc/deno";
import type { CodexLayerOptions } from "./codex-client.js";
import { layerSpawn, layerSpawnConfig, type SpawnOptions } from "./spawn-layer.js";

export type { SpawnOptions } from "./spawn-layer.js";

/** Spawns the server on Deno: closing the Layer's scope closes the client and ends the process. */
export const layerDeno = <R = never>(spawn: SpawnOptions = {}, options: CodexLayerOptions<R> = {}) => layerSpawn(spawnCodexAppServer, spawn, options);

/** `layerDeno` with `codexPath` from Config (`CODEX_PATH`) when the spawn options name none. */
export const layerDenoConfig = <R = never>(spawn: SpawnOptions = {}, options: CodexLayerOptions<R> = {}) =>
  layerSpawnConfig(spawnCodexAppServer, spawn, options);
