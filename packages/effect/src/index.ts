// @codex-rpc/effect: the runtime-free binding. Runtime Layers are in `/node` and `/websocket`,
// testing Layers in `/testing`.
export {
  CodexClient,
  connectScoped,
  layer,
  makeCodexService,
  serviceLayer,
  type ClientOptions,
  type CodexLayerOptions,
  type CodexService,
  type Connect,
  type LayerOptions,
  type RequestPolicy,
} from "./codex-client.js";
export * from "./errors.js";
export { defineEffectTool, type EffectTool, type EffectToolDefinition } from "./tools.js";
export type { EffectServerRequestHandler, ServerRequestEffects, ServicesOf, ServicesOfTools } from "./server-requests.js";
export type { EffectThread, EffectTurnOptions, TurnInput } from "./thread.js";
export type { EffectTurn } from "./turn.js";
export { streamFrom, type Subscribable } from "./observable-stream.js";
export { CODEX_CONFIG_KEYS, codexSettings, type CodexSettings } from "./config.js";
export { layerSpawn, layerSpawnConfig, type SpawnOptions, type SpawnServer } from "./spawn-layer.js";
