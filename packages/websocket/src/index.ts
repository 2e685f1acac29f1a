import { type RelayTransportOptions, relayTransportOptions } from "./relay-protocol.js";
import { SERVER_SOCKETS } from "./server-sockets.js";
import { openWebSocketTransport as openPortable, type WebSocketTransport, type WebSocketTransportOptions } from "./websocket-transport.js";

export { WebSocketTransport, type WebSocketTransportOptions } from "./websocket-transport.js";
export { WebSocketConnectError } from "./connect-failure.js";
export type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";
export type { HeartbeatOptions } from "./heartbeat.js";
export { RELAY_DISCOVERY_PATH, RELAY_SUBPROTOCOL, relayProtocols, type RelayTransportOptions, TOKEN_SUBPROTOCOL_PREFIX } from "./relay-protocol.js";

/**
 * Opens a WebSocket to a codex app-server and resolves with its transport once the connection is
 * open: one JSON message per text frame, each way. Any standard WebSocket, or the `ws` package's.
 *
 * @throws WebSocketConnectError `CONNECT_FAILED` (nothing there, refused, timed out, aborted) or
 *   `UNAUTHORIZED` (the token was missing or rejected). The token never appears in an error.
 */
export function openWebSocketTransport(options: WebSocketTransportOptions): Promise<WebSocketTransport> {
  return openPortable(options, SERVER_SOCKETS);
}

/**
 * Opens a WebSocket to @codex-rpc/relay, presenting its launch `token` as the subprotocol
 * `codex-rpc.token.<token>` (see `relayProtocols`). A refusal says what the relay refused.
 */
export function openRelayTransport(options: RelayTransportOptions<WebSocketTransportOptions>): Promise<WebSocketTransport> {
  return openWebSocketTransport(relayTransportOptions(options));
}
