// @codex-rpc/effect/websocket: a Layer over @codex-rpc/websocket (every runtime; a Unix socket on
// Node with `socketPath`). Effect's socket module is not used: @codex-rpc/websocket already does
// the auth header, the size cap, heartbeats and close codes core's errors report.
import { openWebSocketTransport } from "@codex-rpc/websocket";
import { Config, Effect, Layer, Option, Redacted, type Scope } from "effect";
import { type CodexClient, type LayerOptions, layer } from "./codex-client.js";
import { CODEX_CONFIG_KEYS, codexSettings } from "./config.js";
import { acquireAbortable } from "./acquire-transport.js";
import type { CodexError } from "./errors.js";
import type { ServicesOf } from "./server-requests.js";
import type { EffectTool } from "./tools.js";

export type EffectWebSocketOptions = Parameters<typeof openWebSocketTransport>[0];

/** Connects to a running app-server; with `reconnect` in `options`, each reconnection opens a new socket. */
export function layerWebSocket<
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
>(
  socket: EffectWebSocketOptions,
  options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {},
): Layer.Layer<CodexClient, CodexError, ServicesOf<RA, RE, RU, RF, RH, Tools>> {
  const connect = options.reconnect
    ? Effect.succeed(() => openWebSocketTransport(socket))
    : acquireAbortable(
        (signal) => openWebSocketTransport({ ...socket, signal: bothSignals(socket.signal, signal) }),
        (transport) => transport.close(),
      );
  return layer<RA, RE, RU, RF, RH, Tools, CodexError, Scope.Scope>(connect, options);
}

/** `layerWebSocket` with the URL (`CODEX_APP_SERVER_URL`) and token (`CODEX_APP_SERVER_TOKEN`, redacted) from Config. */
export function layerWebSocketConfig<
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
>(options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {}) {
  return Layer.unwrap(
    Effect.gen(function* () {
      // The URL is required here: a missing one fails the Layer with Effect's ConfigError.
      const url = yield* Config.URL(CODEX_CONFIG_KEYS.url);
      const { token } = yield* codexSettings;
      return layerWebSocket<RA, RE, RU, RF, RH, Tools>(
        { url: url.href, ...Option.match(token, { onNone: () => ({}), onSome: (value) => ({ token: Redacted.value(value) }) }) },
        options,
      );
    }),
  );
}

/** The user's own signal (if any) and the Layer's (interruption), either one aborting. */
function bothSignals(own: AbortSignal | undefined, layer: AbortSignal | undefined): AbortSignal | undefined {
  return own && layer ? AbortSignal.any([own, layer]) : (own ?? layer);
}
