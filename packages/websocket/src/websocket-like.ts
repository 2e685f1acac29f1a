/**
 * The part of the standard WebSocket this package uses: what browsers, Deno, Bun, Node 22's
 * global and the `ws` package (Node 20) all provide.
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** Drops the connection without a close handshake (`ws`, Bun). Used when the peer does not answer. */
  terminate?(): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { readonly data: unknown }) => void): void;
  addEventListener(type: "error", listener: (event: { readonly message?: unknown; readonly error?: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { readonly code: number; readonly reason: string }) => void): void;
}

/**
 * A WebSocket constructor, called the way its runtime takes subprotocols and headers: browsers
 * `(url, protocols?)`; Deno, Bun and Node 22 (undici) also `(url, { protocols, headers })`; the `ws`
 * package `(url, protocols, { headers, maxPayload })` (`maxPayload` is passed only to `ws`).
 */
export type WebSocketConstructor = new (
  url: string,
  protocolsOrOptions?: string | string[] | { headers?: Record<string, string>; protocols?: string[] },
  wsOptions?: { headers?: Record<string, string>; maxPayload?: number },
) => WebSocketLike;
