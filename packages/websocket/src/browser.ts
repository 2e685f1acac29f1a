// The browser entry (export condition "browser"). Browsers cannot set an Authorization header on a
// WebSocket, and codex refuses any request with an Origin header (403): a page reaches the server
// through a relay that it trusts, which holds the token.
import { CodexRpcError } from "@codex-rpc/core";
import { type RelayTransportOptions, relayTransportOptions } from "./relay-protocol.js";
import { openWebSocketTransport as openPortable, type WebSocketTransport, type WebSocketTransportOptions } from "./websocket-transport.js";

export { WebSocketTransport, type WebSocketTransportOptions } from "./websocket-transport.js";
export { WebSocketConnectError } from "./connect-failure.js";
export type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";
export type { HeartbeatOptions } from "./heartbeat.js";
export { RELAY_DISCOVERY_PATH, RELAY_SUBPROTOCOL, relayProtocols, type RelayTransportOptions, TOKEN_SUBPROTOCOL_PREFIX } from "./relay-protocol.js";

/**
 * Opens a WebSocket (see the portable `openWebSocketTransport`).
 *
 * @throws CodexRpcError `UNSUPPORTED` when given a `token`: a browser cannot send it.
 */
export async function openWebSocketTransport(options: WebSocketTransportOptions): Promise<WebSocketTransport> {
  if (options.token !== undefined && options.WebSocket === undefined) {
    throw new CodexRpcError(
      "UNSUPPORTED",
      "a browser's WebSocket cannot send an Authorization header, so `token` cannot be used here; connect through a relay that holds the token",
    );
  }
  return openPortable(options);
}

/**
 * Opens a WebSocket to @codex-rpc/relay, presenting its launch `token` as the subprotocol
 * `codex-rpc.token.<token>` (see `relayProtocols`). A refusal says what the relay refused.
 */
export function openRelayTransport(options: RelayTransportOptions<WebSocketTransportOptions>): Promise<WebSocketTransport> {
  return openWebSocketTransport(relayTransportOptions(options));
}
