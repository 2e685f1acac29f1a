export { openWebSocketTransport, WebSocketTransport, type WebSocketTransportOptions } from "./websocket-transport.js";
export { WebSocketConnectError } from "./connect-failure.js";
export type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";
export type { HeartbeatOptions } from "./heartbeat.js";
