import type { Observable } from "rxjs";
import type { TransportCloseInfo } from "../errors/errors.js";
import type { JsonRpcMessage } from "../framing/json-rpc-message.js";
import type { TransportDiagnostic } from "../framing/transport-diagnostic.js";

export type { TransportDiagnostic };

/**
 * What every adapter (stdio, WebSocket, Deno, Bun, in-memory) implements.
 *
 * - `messages` emits every message received, in order, to its one subscriber (the connection),
 *   including those that arrived before it subscribed; it completes when the transport closes.
 *   It never errors: how the transport ended is in `closed`.
 * - `send` writes one message; sends are written in call order. It rejects once the transport
 *   is closed.
 * - `close` ends the transport (for a process: stdin end, then SIGTERM, then SIGKILL) and resolves
 *   when it has ended. Calling it again returns the same promise.
 * - `closed` resolves (never rejects) once, with how the transport ended.
 * - A transport that holds a secret (a token, an `Authorization` header's value) takes it out, by
 *   value, of every message, diagnostic and close reason before handing them over: a server may
 *   echo it, and the layers above build errors and diagnostics from what they are handed (see
 *   @codex-rpc/websocket's secret-redactor).
 */
export interface Transport {
  readonly messages$: Observable<JsonRpcMessage>;
  readonly diagnostics$: Observable<TransportDiagnostic>;
  send(message: JsonRpcMessage): Promise<void>;
  close(): Promise<void>;
  readonly closed: Promise<TransportCloseInfo>;
}
