import type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";

/** What only the `ws` package has among the WebSockets this package runs on: its EventEmitter API. */
export interface WsSocket extends WebSocketLike {
  /** A text frame arrives as its bytes (`isBinary` false), before anything turns it into a string. */
  on(event: "message", listener: (data: { readonly length: number; toString(): string }, isBinary: boolean) => void): unknown;
  terminate(): void;
}

/** `ws` is an EventEmitter with `terminate()`; Bun's WebSocket has `terminate()` but no `on`. */
export function isWsConstructor(Socket: WebSocketConstructor): boolean {
  const prototype = (Socket as { prototype?: { on?: unknown; terminate?: unknown } }).prototype;
  return typeof prototype?.on === "function" && typeof prototype.terminate === "function";
}

export function isWsSocket(socket: WebSocketLike): socket is WsSocket {
  const candidate = socket as Partial<WsSocket>;
  return typeof candidate.on === "function" && typeof candidate.terminate === "function";
}
