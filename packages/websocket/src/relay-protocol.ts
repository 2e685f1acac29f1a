// The subprotocols a page offers to @codex-rpc/relay. Their one source: the relay (Node) imports
// them from here, and so can a page (this file is browser-safe).
import { InvalidOptionError } from "@codex-rpc/core";
import type { WebSocketTransportOptions } from "./websocket-transport.js";

/** The subprotocol the relay selects when the page offers it (so the token is not echoed back). */
export const RELAY_SUBPROTOCOL = "codex-rpc.v1";

/** The WebSocket subprotocol prefix a page presents the relay's token with: `codex-rpc.token.<token>`. */
export const TOKEN_SUBPROTOCOL_PREFIX = "codex-rpc.token.";

/** The relay's discovery document (`GET`): where to connect, never the token. */
export const RELAY_DISCOVERY_PATH = "/.well-known/codex-rpc-relay";

/**
 * The subprotocols that connect to a relay with its launch token:
 * `["codex-rpc.v1", "codex-rpc.token.<token>"]`, for `openWebSocketTransport({ url, protocols })`
 * or a plain `new WebSocket(url, protocols)`.
 */
export function relayProtocols(token: string): string[] {
  if (typeof token !== "string" || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(token)) {
    throw new InvalidOptionError("token", "a relay token is a non-empty string of subprotocol characters (the relay makes base64url ones)");
  }
  return [RELAY_SUBPROTOCOL, `${TOKEN_SUBPROTOCOL_PREFIX}${token}`];
}

/** Whether the offered subprotocols are the relay's (then a refused upgrade is the relay's doing). */
export function offersRelayProtocol(protocols: readonly string[] | undefined): boolean {
  return protocols?.some((protocol) => protocol === RELAY_SUBPROTOCOL || protocol.startsWith(TOKEN_SUBPROTOCOL_PREFIX)) ?? false;
}

/** `openRelayTransport`'s options: the WebSocket transport's, with the relay's `token` instead of `protocols`. */
export type RelayTransportOptions<O extends Omit<WebSocketTransportOptions, "url"> = WebSocketTransportOptions> = Omit<O, "protocols" | "token"> & {
  /** The relay's launch token (printed once when it started): offered as `codex-rpc.token.<token>`, never in the URL. */
  readonly token: string;
};

/** The transport options that connect through a relay: its subprotocols carry the token. */
export function relayTransportOptions<O extends Omit<WebSocketTransportOptions, "url">>(options: RelayTransportOptions<O>): O {
  const { token, ...rest } = options;
  return { ...rest, protocols: relayProtocols(token) } as unknown as O;
}
