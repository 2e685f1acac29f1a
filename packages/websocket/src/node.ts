// The Node entry (export condition "node"): the portable transport, plus what only Node has here —
// the `ws` package where there is no global WebSocket (Node 20), and Unix sockets.
import { homedir } from "node:os";
import { join } from "node:path";
import { InvalidOptionError } from "@codex-rpc/core";
import { WebSocketConnectError, redactUrl } from "./connect-failure.js";
import { openWebSocketTransport as openPortable, type WebSocketTransport, type WebSocketTransportOptions } from "./websocket-transport.js";
import type { WebSocketConstructor } from "./websocket-like.js";
import { type RelayTransportOptions, relayTransportOptions } from "./relay-protocol.js";
import { SERVER_SOCKETS } from "./server-sockets.js";

export { WebSocketTransport, type WebSocketTransportOptions } from "./websocket-transport.js";
export { WebSocketConnectError } from "./connect-failure.js";
export type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";
export type { HeartbeatOptions } from "./heartbeat.js";
export { RELAY_DISCOVERY_PATH, RELAY_SUBPROTOCOL, relayProtocols, type RelayTransportOptions, TOKEN_SUBPROTOCOL_PREFIX } from "./relay-protocol.js";

export interface NodeWebSocketTransportOptions extends Omit<WebSocketTransportOptions, "url"> {
  /** `ws://IP:PORT` (codex `--listen ws://IP:PORT`). Give this or `socketPath`. */
  readonly url?: string;
  /**
   * A Unix socket (codex `--listen unix://PATH`; `defaultControlSocketPath()` for plain
   * `--listen unix://`): WebSocket framing over the socket, through the `ws` package.
   */
  readonly socketPath?: string;
}

/**
 * Opens a WebSocket to a codex app-server (see the portable `openWebSocketTransport`). On Node 20,
 * which has no global WebSocket, and for Unix sockets, it uses the `ws` package (an optional peer
 * dependency: install it).
 */
export async function openWebSocketTransport(options: NodeWebSocketTransportOptions): Promise<WebSocketTransport> {
  const { socketPath, url, ...rest } = options;
  if ((socketPath === undefined) === (url === undefined)) throw new InvalidOptionError("url", "give exactly one of `url` and `socketPath`");
  if (url !== undefined && typeof url !== "string") throw new InvalidOptionError("url", "must be a ws:// or wss:// URL string");
  if (socketPath !== undefined && typeof socketPath !== "string") throw new InvalidOptionError("socketPath", "must be a path string");
  if (socketPath !== undefined) {
    // ws's own scheme for a Unix socket: the socket path, then `:` and the request path.
    const target = `ws+unix://${socketPath}:/`;
    return openPortable({ ...rest, url: target, WebSocket: options.WebSocket ?? (await loadWs(target)) }, SERVER_SOCKETS);
  }
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  return openPortable({ ...rest, url: url!, WebSocket: options.WebSocket ?? global ?? (await loadWs(url!)) }, SERVER_SOCKETS);
}

/**
 * Where `codex app-server --listen unix://` puts its control socket:
 * `$CODEX_HOME/app-server-control/app-server-control.sock` (CODEX_HOME defaults to `~/.codex`).
 */
export function defaultControlSocketPath(codexHome: string = process.env.CODEX_HOME ?? join(homedir(), ".codex")): string {
  return join(codexHome, "app-server-control", "app-server-control.sock");
}

/** The `ws` package, or a CONNECT_FAILED error saying to install it (nothing was opened). */
async function loadWs(url: string): Promise<WebSocketConstructor> {
  try {
    const module = (await import("ws")) as { default: unknown };
    return module.default as WebSocketConstructor;
  } catch (error) {
    throw new WebSocketConnectError(
      "CONNECT_FAILED",
      "this needs the `ws` package (Node 20 has no global WebSocket, and only ws speaks over Unix sockets): npm install ws",
      redactUrl(url),
      undefined,
      { cause: error },
    );
  }
}

/**
 * Opens a WebSocket to @codex-rpc/relay, presenting its launch `token` as the subprotocol
 * `codex-rpc.token.<token>` (see `relayProtocols`). A refusal says what the relay refused.
 */
export function openRelayTransport(options: RelayTransportOptions<NodeWebSocketTransportOptions>): Promise<WebSocketTransport> {
  return openWebSocketTransport(relayTransportOptions(options));
}
