import type { ServerNotification } from "@codex-rpc/protocol";
import type { ConnectionClosedError } from "../errors/errors.js";
import type { ConnectionDiagnostic, RequestOptions } from "../rpc/json-rpc-connection.js";

/** What a turn registers to follow its thread (see `SessionHost.listenToThread`). */
export interface ThreadListener {
  notification(notification: ServerNotification): void;
  closed(error: ConnectionClosedError): void;
}

/**
 * What threads and turns need of the client that opened them. It is declared here, below the
 * client, and the client implements it: the session layer never imports the client, so
 * client → thread → turn is a line, not a circle.
 */
export interface SessionHost {
  /** Sends a request as the caller's own would go (it fails at once while the client reconnects). */
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** Waits for a module call `method` loads on demand as the call's request would wait for its reply (JsonRpcConnection.load). */
  load<M>(method: string, load: Promise<M>, options?: RequestOptions): Promise<M>;
  /** `thread/fork` as `startThread` starts a thread (default approval policy, resumed on reconnect): the new thread's info. */
  forkThread(params: unknown): Promise<unknown>;
  /**
   * Gives `listener` every notification of one thread, and the close error if the connection
   * closes first, until the returned disposer is called.
   */
  listenToThread(threadId: string, listener: ThreadListener): () => void;
  /** Reports on the client's diagnostics (through the connection in use). */
  report(diagnostic: ConnectionDiagnostic): void;
  /** The client's default turn timeout. */
  readonly turnTimeoutMs: number | undefined;
}
