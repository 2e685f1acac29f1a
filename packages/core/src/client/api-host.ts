import type { Observable } from "rxjs";
import type { TransportCloseInfo } from "../errors/errors.js";
import type { ConnectionDiagnostic, RequestOptions } from "../rpc/json-rpc-connection.js";

/**
 * What the client's helper objects (`client.account`, `client.fs`, `client.exec`, `client.models`)
 * use of it: untyped requests (each helper types its own methods) and one notification method's
 * params. The client hands them this, so they never see its private state.
 */
export interface ApiHost {
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** Waits for a module call `method` loads on demand as the call's request would wait for its reply (JsonRpcConnection.load). */
  load<M>(method: string, load: Promise<M>, options?: RequestOptions): Promise<M>;
  notifications(method: string): Observable<unknown>;
  /** Reports on the client's diagnostics (a message a helper could not use). */
  report(diagnostic: ConnectionDiagnostic): void;
  /** Resolves when the client is closed for good (notification streams then complete). */
  readonly closed: Promise<TransportCloseInfo>;
  /**
   * The client's state (`connecting`, `open`, `reconnecting`, `closed`), replayed on subscribe:
   * what a connection-scoped id (a watch, a login) needs to know that the server it lived on is gone.
   */
  readonly state$: Observable<string>;
}

let counter = 0;

/**
 * An id the client chooses for the server (`processId` of `command/exec`, `watchId` of `fs/watch`):
 * connection-scoped on the server, so a counter with a random part is enough to keep two clients'
 * ids apart in logs.
 */
export function clientChosenId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 10)}`;
}
