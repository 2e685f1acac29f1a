// @codex-rpc/effect/node: Layers that spawn `codex app-server` with @codex-rpc/stdio. Effect's
// own child-process module is not used: @codex-rpc/stdio already owns the shutdown sequence
// (end stdin, SIGTERM, SIGKILL), the stderr tail and the binary search core's errors report.
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { runtimeLayers } from "./spawn-layer.js";

export type { SpawnOptions } from "./spawn-layer.js";

const layers = runtimeLayers(spawnCodexAppServer);

/** Spawns the server on Node: closing the Layer's scope closes the client and ends the process. */
export const layerNode = layers.layer;

/** `layerNode` with `codexPath` from Config (`CODEX_PATH`) when the spawn options name none. */
export const layerNodeConfig = layers.layerConfig;
