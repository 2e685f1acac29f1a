export { startRelay, type RelayHandle, type RelayOptions } from "./start-relay.js";
export type { RelayUpstream } from "./upstream.js";
export type { RelayLogger } from "./relay-log.js";
export type { RateLimit } from "./token-bucket.js";
export { RelayMultiplexer, RelayConnection, RelayErrorCode, RelayCloseCode, type RelayPeer, type RelayMultiplexerOptions } from "./relay-multiplexer.js";
export { MultiplexerGroup } from "./multiplexer-group.js";
export { RELAY_SUBPROTOCOL, TOKEN_SUBPROTOCOL_PREFIX } from "./token.js";
export { DISCOVERY_PATH } from "./upgrade-gate.js";
export { LOGIN_CODE_PATH } from "./login-codes.js";
