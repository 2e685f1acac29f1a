// @codex-rpc/effect/experimental: the service typed by codex's experimental protocol surface
// (@codex-rpc/protocol/experimental, which also turns `experimentalApi` on), so experimental-only
// methods and fields are typed through Effect too. Same Layers as the stable service, another tag.
import { protocol, type ProtocolTypes as ExperimentalProtocolTypes } from "@codex-rpc/protocol/experimental";
import { Context, type Layer, type Scope } from "effect";
import { type CodexLayerOptions, type CodexService, type Connect, serviceLayer } from "./codex-client.js";
import type { CodexError } from "./errors.js";
import { type SpawnOptions, type SpawnServer, spawned } from "./spawn-layer.js";

export type { ExperimentalProtocolTypes };

/** The Codex client as an Effect service, typed by the experimental protocol. */
export class CodexClientExperimental extends Context.Service<CodexClientExperimental, CodexService<ExperimentalProtocolTypes>>()(
  "@codex-rpc/effect/CodexClientExperimental",
) {}

/** Layer options: the stable ones, typed by the experimental protocol (which the Layer sets). */
export type ExperimentalLayerOptions<R = never> = Omit<CodexLayerOptions<R, ExperimentalProtocolTypes>, "protocol">;

/** `CodexClientExperimental` connected by `connect`; scoped like `layer`. */
export function layerExperimental<R = never, E = never, RC = never>(
  connect: Connect<E, RC>,
  options: ExperimentalLayerOptions<R> = {},
): Layer.Layer<CodexClientExperimental, CodexError | E, Exclude<R | RC, Scope.Scope>> {
  return serviceLayer(CodexClientExperimental, connect, { ...options, protocol });
}

/**
 * Spawns the server with a runtime package's `spawnCodexAppServer` (@codex-rpc/stdio, /deno, /bun),
 * as `layerNode` / `layerDeno` / `layerBun` do: closing the Layer's scope ends the process.
 */
export function layerSpawnExperimental<R = never>(spawn: SpawnServer, spawnOptions: SpawnOptions = {}, options: ExperimentalLayerOptions<R> = {}) {
  return layerExperimental(spawned(spawn, spawnOptions, options.reconnect), options);
}
