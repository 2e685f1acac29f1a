// @codex-rpc/effect/deno: Layers that spawn `codex app-server` with @codex-rpc/deno (the same
// shutdown sequence and binary search as every runtime package; see /node).
import { spawnCodexAppServer } from "@codex-rpc/deno";
import { runtimeLayers } from "./spawn-layer.js";

export type { SpawnOptions } from "./spawn-layer.js";

const layers = runtimeLayers(spawnCodexAppServer);

/** Spawns the server on Deno: closing the Layer's scope closes the client and ends the process. */
export const layerDeno = layers.layer;

/** `layerDeno` with `codexPath` from Config (`CODEX_PATH`) when the spawn options name none. */
export const layerDenoConfig = layers.layerConfig;
