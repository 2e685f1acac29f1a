// @codex-rpc/effect/testing: Layers for testing Effect programs that use CodexClient, backed by
// the in-memory FakeAppServer or by the real codex app-server talking to the scripted mock model.
// Node only (the mock model is an HTTP server; codex is spawned with @codex-rpc/stdio).
import { mkdir } from "node:fs/promises";
import { FakeAppServer, type FakeAppServerOptions } from "@codex-rpc/core/testing";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { createCodexHome, type CodexHome, type CodexHomeOptions, MockResponsesProvider, type ScriptedReply } from "@codex-rpc/testing";
import { Context, Effect, Layer } from "effect";
import { type CodexClient, type LayerOptions, layer } from "./codex-client.js";
import { acquireTransport } from "./acquire-transport.js";
import type { CodexError } from "./errors.js";
import type { ServicesOf } from "./server-requests.js";
import type { EffectTool } from "./tools.js";

/** The in-memory server behind `layerFake`, for a test to script, overload or crash it. */
export class FakeServer extends Context.Service<FakeServer, FakeAppServer>()("@codex-rpc/effect/testing/FakeServer") {}

/** CodexClient connected to a new FakeAppServer (also given as the FakeServer service). */
export function layerFake<
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
>(
  server: FakeAppServerOptions = {},
  options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {},
): Layer.Layer<CodexClient | FakeServer, CodexError, ServicesOf<RA, RE, RU, RF, RH, Tools>> {
  return Layer.unwrap(
    Effect.sync(() => {
      const fake = new FakeAppServer(server);
      return Layer.merge(layer<RA, RE, RU, RF, RH, Tools>(Effect.succeed(fake.transport), options), Layer.succeed(FakeServer, fake));
    }),
  );
}

/** The real codex behind `layerOffline`: its mock model, its CODEX_HOME, its workspace and its process id. */
export interface OfflineCodexShape {
  readonly provider: MockResponsesProvider;
  readonly home: CodexHome;
  /** The server's working directory (a `workspace` folder in the temporary CODEX_HOME). */
  readonly workspace: string;
  readonly pid: number | undefined;
}
export class OfflineCodex extends Context.Service<OfflineCodex, OfflineCodexShape>()("@codex-rpc/effect/testing/OfflineCodex") {}

export interface OfflineOptions {
  /** What the mock model answers, one reply per model request (`reply.*` of @codex-rpc/testing). */
  readonly script?: readonly ScriptedReply[];
  readonly home?: Omit<CodexHomeOptions, "provider">;
  /** The codex binary; default: @codex-rpc/stdio's search. */
  readonly codexPath?: string;
  readonly args?: readonly string[];
}

/**
 * CodexClient connected to a real `codex app-server` run offline against MockResponsesProvider,
 * with a temporary CODEX_HOME; closing the scope ends the process, stops the model and deletes the home.
 */
export function layerOffline<
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
>(
  offline: OfflineOptions = {},
  options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {},
): Layer.Layer<CodexClient | OfflineCodex, CodexError, ServicesOf<RA, RE, RU, RF, RH, Tools>> {
  return Layer.unwrap(
    Effect.gen(function* () {
      const provider = yield* Effect.acquireRelease(
        Effect.promise(() => MockResponsesProvider.start({ script: offline.script ?? [] })),
        (started) => Effect.promise(() => started.close()),
      );
      const home = yield* Effect.acquireRelease(
        Effect.promise(() => createCodexHome({ ...offline.home, provider })),
        (created) => Effect.promise(() => created.cleanup()),
      );
      const workspace = `${home.dir}/workspace`;
      yield* Effect.promise(() => mkdir(workspace, { recursive: true }));
      const transport = yield* acquireTransport(() =>
        spawnCodexAppServer({
          ...(offline.codexPath === undefined ? {} : { codexPath: offline.codexPath }),
          ...(offline.args ? { args: [...offline.args] } : {}),
          cwd: workspace,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env },
        }),
      );
      const codex = Layer.succeed(OfflineCodex, { provider, home, workspace, pid: transport.pid });
      return Layer.merge(layer<RA, RE, RU, RF, RH, Tools>(Effect.succeed(transport), { experimentalApi: true, ...options }), codex);
    }),
  );
}
