// What a WebSocket transport does differently on a server-side runtime: the `ws` package's API (its
// constructor options, text frames handed over as bytes, its maxPayload ceiling) and dropping a
// connection with no close handshake. The entries of Node, Deno and Bun (node.ts, index.ts) hand
// SERVER_SOCKETS (server-sockets.ts) to the transport; the browser entry hands none, as a page's
// WebSocket is none of these, so a page does not carry them.
import type { SocketInit } from "./construct-socket.js";
import type { WebSocketConstructor, WebSocketLike } from "./websocket-like.js";

/** Where a frame received goes: the transport's own handling, for a runtime that listens to frames itself. */
export interface FrameSink {
  /** A frame came (it counts as life); false when the transport has closed and drops it. */
  arrived(): boolean;
  binary(): void;
  oversize(bytes: number, why?: string): void;
  text(text: string): void;
}

export interface SocketRuntime {
  /** `new Socket(url, …)` the way this runtime's WebSocket takes subprotocols and headers (see constructSocket). */
  construct(Socket: WebSocketConstructor, url: string, init: SocketInit, maxMessageBytes: number): WebSocketLike;
  /** Listens to the socket's frames itself when it can do better than its `message` event (ws: as bytes); false when it does not. */
  listen(socket: WebSocketLike, maxMessageBytes: number, sink: FrameSink): boolean;
  /**
   * The error of an `error` event after opening that is the runtime's WebSocket refusing a message
   * over its own ceiling (it then fails the connection); undefined for any other error.
   */
  tooBig(socket: WebSocketLike, event: { readonly error?: unknown }, detail: string | undefined, maxMessageBytes: number): Error | undefined;
  /** Drops the connection at once (see terminateSocket). */
  terminate(socket: WebSocketLike): void;
}
