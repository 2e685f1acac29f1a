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
 * A WebSocket constructor. The second argument is an options object only when something must go
 * there: Deno, Bun, Node 22 (undici) and `ws` accept `{ headers }`, browsers nothing; `maxPayload`
 * is passed only to `ws`.
 */
export type WebSocketConstructor = new (url: string, options?: { headers?: Record<string, string>; maxPayload?: number }) => WebSocketLike;
