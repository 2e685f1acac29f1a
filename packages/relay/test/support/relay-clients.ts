// Ways into a relay for tests: a CodexClient over @codex-rpc/websocket's `openRelayTransport`
// (with `ws` sending an Origin, as a browser page does), and a raw `ws` socket.
import WebSocket from "ws";
import { CodexClient, type CodexClientOptions } from "@codex-rpc/core";
import { openRelayTransport, openWebSocketTransport, relayProtocols, type WebSocketConstructor } from "@codex-rpc/websocket";
import { RELAY_SUBPROTOCOL } from "../../src/index.js";

export interface PageOptions {
  /** The token to present (default: none). */
  readonly token?: string;
  /** The `Origin` header (default: none, as a Node client). */
  readonly origin?: string;
}

function protocolsFor(options: PageOptions): string[] {
  return options.token === undefined ? [RELAY_SUBPROTOCOL] : relayProtocols(options.token);
}

/**
 * `ws`, sending an Origin header as a browser page does (the subprotocols come from the
 * transport's `protocols` option, as in a browser).
 */
export function pageWebSocket(origin: string | undefined): WebSocketConstructor {
  if (origin === undefined) return WebSocket as unknown as WebSocketConstructor;
  return class extends WebSocket {
    constructor(url: string, protocols: string[] = [], init: WebSocket.ClientOptions = {}) {
      super(url, protocols, { ...init, origin });
    }
  } as unknown as WebSocketConstructor;
}

/** A CodexClient connected through the relay, as a page connects: `openRelayTransport` (or only `codex-rpc.v1` without a token). */
export async function connectThroughRelay(url: string, page: PageOptions, options: CodexClientOptions = {}): Promise<CodexClient> {
  const common = { url, WebSocket: pageWebSocket(page.origin), heartbeat: false } as const;
  const transport =
    page.token === undefined
      ? await openWebSocketTransport({ ...common, protocols: [RELAY_SUBPROTOCOL] })
      : await openRelayTransport({ ...common, token: page.token });
  return CodexClient.connect(transport, { clientInfo: { name: "relay_test", version: "0.0.0" }, ...options });
}

/** How a raw upgrade went: refused with an HTTP status, or open. */
export type UpgradeOutcome = { readonly status: number; readonly body: string } | { readonly socket: WebSocket };

/** Tries an upgrade with raw `ws`, reporting a refusal's status instead of throwing. */
export function tryUpgrade(url: string, page: PageOptions): Promise<UpgradeOutcome> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocolsFor(page), page.origin === undefined ? {} : { origin: page.origin });
    socket.once("open", () => resolve({ socket }));
    socket.once("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once("error", (error) => reject(error));
  });
}

/** Sends one message and waits for the answer with its id. */
export function call(socket: WebSocket, id: number, method: string, params?: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(String(data)) as Record<string, unknown>;
      if (message.id === id && message.method === undefined) {
        socket.off("message", onMessage);
        resolve(message);
      }
    };
    socket.on("message", onMessage);
    socket.send(JSON.stringify(params === undefined ? { id, method } : { id, method, params }));
  });
}

/** Resolves with the close code once the socket closes. */
export function closeCode(socket: WebSocket): Promise<number> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve(-1);
  return new Promise((resolve) => socket.once("close", (code) => resolve(code)));
}
