// @codex-rpc/effect/bun: Layers that spawn `codex app-server` with @codex-rpc/bun (the same
// shutdown sequence and binary search as every runtime package; see /node).
import { spawnCodexAppServer } from "@codex-rpc/bun";
import { runtimeLayers } from "./spawn-layer.js";

export type { SpawnOptions } from "./spawn-layer.js";

const layers = runtimeLayers(spawnCodexAppServer);

/** Spawns the server on Bun: closing the Layer's scope closes the client and ends the process. */
export const layerBun = layers.layer;

/** `layerBun` with `codexPath` from Config (`CODEX_PATH`) when the spawn options name none. */
export const layerBunConfig = layers.layerConfig;
