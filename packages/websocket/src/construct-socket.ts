import type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";
import { isWsConstructor } from "./ws-socket.js";

export interface SocketInit {
  readonly headers?: Record<string, string>;
  readonly protocols?: readonly string[];
  /** ws only: the largest message it holds before failing the connection. */
  readonly maxPayload?: number;
}

/**
 * `new Socket(url, …)` the way this runtime's WebSocket takes subprotocols and headers:
 * `ws` as `(url, protocols, { headers, maxPayload })` (`(url, options)` without subprotocols); Deno, Bun and Node 22 (undici) as
 * `(url, { protocols, headers })` when there are headers; otherwise the standard `(url, protocols)`,
 * which browsers take too. Nothing beyond the URL when there is nothing to pass.
 */
export function constructSocket(Socket: WebSocketConstructor, url: string, init: SocketInit): WebSocketLike {
  const protocols = init.protocols ? [...init.protocols] : undefined;
  if (isWsConstructor(Socket)) {
    const options = { ...(init.headers ? { headers: init.headers } : {}), ...(init.maxPayload !== undefined ? { maxPayload: init.maxPayload } : {}) };
    // Without subprotocols, options second (ws takes both forms), as before `protocols` existed.
    if (!protocols) return Object.keys(options).length > 0 ? new Socket(url, options) : new Socket(url);
    return new Socket(url, protocols, options);
  }
  return constructStandard(Socket, url, init);
}

/** constructSocket for every WebSocket but ws's (a page's, Deno's, Bun's, Node 22's). */
export function constructStandard(Socket: WebSocketConstructor, url: string, init: SocketInit): WebSocketLike {
  const protocols = init.protocols ? [...init.protocols] : undefined;
  if (init.headers) return new Socket(url, { headers: init.headers, ...(protocols ? { protocols } : {}) });
  return protocols ? new Socket(url, protocols) : new Socket(url);
}
