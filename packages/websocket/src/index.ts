import { type RelayTransportOptions, relayTransportOptions } from "./relay-protocol.js";
import { openWebSocketTransport, type WebSocketTransport, type WebSocketTransportOptions } from "./websocket-transport.js";

export { openWebSocketTransport, WebSocketTransport, type WebSocketTransportOptions } from "./websocket-transport.js";
export { WebSocketConnectError } from "./connect-failure.js";
export type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";
export type { HeartbeatOptions } from "./heartbeat.js";
export { RELAY_DISCOVERY_PATH, RELAY_SUBPROTOCOL, relayProtocols, type RelayTransportOptions, TOKEN_SUBPROTOCOL_PREFIX } from "./relay-protocol.js";

/**
 * Opens a WebSocket to @codex-rpc/relay, presenting its launch `token` as the subprotocol
 * `codex-rpc.token.<token>` (see `relayProtocols`). A refusal says what the relay refused.
 */
export function openRelayTransport(options: RelayTransportOptions<WebSocketTransportOptions>): Promise<WebSocketTransport> {
  return openWebSocketTransport(relayTransportOptions(options));
}
