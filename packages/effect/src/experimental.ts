// @codex-rpc/effect/experimental: the service typed by codex's experimental protocol surface
// (@codex-rpc/protocol/experimental, which also turns `experimentalApi` on), so experimental-only
// methods and fields are typed through Effect too. Same Layers as the stable service, another tag.
import { protocol, type ProtocolTypes as ExperimentalProtocolTypes } from "@codex-rpc/protocol/experimental";
import { Context, type Layer, type Scope } from "effect";
import { type CodexLayerOptions, type CodexService, type Connect, serviceLayer } from "./codex-client.js";
import type { CodexError } from "./errors.js";
import type { ServicesOf } from "./server-requests.js";
import type { EffectTool } from "./tools.js";
import { type SpawnOptions, type SpawnServer, spawned } from "./spawn-layer.js";

export type { ExperimentalProtocolTypes };

/** The Codex client as an Effect service, typed by the experimental protocol. */
export class CodexClientExperimental extends Context.Service<CodexClientExperimental, CodexService<ExperimentalProtocolTypes>>()(
  "@codex-rpc/effect/CodexClientExperimental",
) {}

/** Layer options: the stable ones, typed by the experimental protocol (which the Layer sets). */
export type ExperimentalLayerOptions<
  R = never,
  RA = R,
  RE = R,
  RU = R,
  RF = R,
  RH = R,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<R>[],
> = Omit<CodexLayerOptions<R, ExperimentalProtocolTypes, RA, RE, RU, RF, RH, Tools>, "protocol">;

/** `CodexClientExperimental` connected by `connect`; scoped like `layer`. */
export function layerExperimental<
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
  E = never,
  RC = never,
>(
  connect: Connect<E, RC>,
  options: ExperimentalLayerOptions<never, RA, RE, RU, RF, RH, Tools> = {},
): Layer.Layer<CodexClientExperimental, CodexError | E, Exclude<ServicesOf<RA, RE, RU, RF, RH, Tools> | RC, Scope.Scope>> {
  // Each field needs a part of ServicesOf<…> (the tools theirs, which TypeScript does not see through `Tools`).
  const withProtocol = { ...options, protocol } as CodexLayerOptions<ServicesOf<RA, RE, RU, RF, RH, Tools>, ExperimentalProtocolTypes>;
  return serviceLayer<CodexClientExperimental, ExperimentalProtocolTypes, ServicesOf<RA, RE, RU, RF, RH, Tools>, E, RC>(
    CodexClientExperimental,
    connect,
    withProtocol,
  );
}

/**
 * Spawns the server with a runtime package's `spawnCodexAppServer` (@codex-rpc/stdio, /deno, /bun),
 * as `layerNode` / `layerDeno` / `layerBun` do: closing the Layer's scope ends the process.
 */
export function layerSpawnExperimental<
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
>(spawn: SpawnServer, spawnOptions: SpawnOptions = {}, options: ExperimentalLayerOptions<never, RA, RE, RU, RF, RH, Tools> = {}) {
  return layerExperimental<RA, RE, RU, RF, RH, Tools, CodexError, Scope.Scope>(spawned(spawn, spawnOptions, options.reconnect), options);
}
