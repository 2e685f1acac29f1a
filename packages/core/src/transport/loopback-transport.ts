import { Subject, type Observable } from "rxjs";
import { ConnectionClosedError, type TransportCloseInfo } from "../errors/errors.js";
import type { JsonRpcMessage } from "../framing/json-rpc-message.js";
import { MessageInbox } from "./message-inbox.js";
import type { Transport, TransportDiagnostic } from "./transport.js";

/** One end of a loopback pair: a Transport, plus a way to end the pair as a server would. */
export interface LoopbackTransport extends Transport {
  /**
   * Ends both ends as if this side went away: this end closes with `{ reason: "closed" }`, the
   * other with `info` (e.g. `{ reason: "exit", exitCode: null, signal: "SIGKILL" }` for a crash).
   * Messages already sent are delivered first. Does nothing once the pair is closed.
   */
  disconnect(info: TransportCloseInfo): Promise<void>;
}

/**
 * Two connected in-memory Transports: what one end sends, the other receives, as the same
 * message objects (no bytes, no framing), in send order, asynchronously (a send is delivered in a
 * later microtask, never while the sender is still running). Messages that arrive before an end's
 * first subscriber are kept for it. `close()` on either end closes both: that end with
 * `{ reason: "closed" }`, the other with `{ reason: "eof" }` (its peer went away), after the
 * messages already sent are delivered; later sends reject with ConnectionClosedError.
 *
 * For tests (core's own, a scripted server in a user's tests) and for running a client and a
 * server in one process.
 */
export function createLoopbackTransportPair(): [client: LoopbackTransport, server: LoopbackTransport] {
  const client = new LoopbackEnd();
  const server = new LoopbackEnd();
  client.peer = server;
  server.peer = client;
  return [client, server];
}

class LoopbackEnd implements LoopbackTransport {
  readonly messages$: Observable<JsonRpcMessage>;
  readonly diagnostics$: Observable<TransportDiagnostic>;
  readonly closed: Promise<TransportCloseInfo>;
  peer!: LoopbackEnd;

  readonly #inbox = new MessageInbox<JsonRpcMessage>();
  readonly #diagnostics = new Subject<TransportDiagnostic>();
  #resolveClosed!: (info: TransportCloseInfo) => void;
  #closeInfo: TransportCloseInfo | undefined;
  #closePromise: Promise<void> | undefined;
  /** Deliveries to this end, settled in order: the last one in the chain. */
  #deliveries: Promise<void> = Promise.resolve();
  #inboxCompleted = false;

  constructor() {
    this.messages$ = this.#inbox.messages$;
    this.diagnostics$ = this.#diagnostics.asObservable();
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closeInfo) return Promise.reject(new ConnectionClosedError(this.#closeInfo));
    return this.peer.#enqueue(message);
  }

  close(): Promise<void> {
    this.#closePromise ??= this.disconnect({ reason: "eof" });
    return this.#closePromise;
  }

  disconnect(info: TransportCloseInfo): Promise<void> {
    if (this.#closeInfo) return this.#closePromise ?? this.closed.then(() => {});
    const ended = Promise.all([this.#end({ reason: "closed" }), this.peer.#end(info)]).then(() => {});
    this.#closePromise ??= ended;
    return ended;
  }

  /** Delivers a message after those already queued; resolves once it is in the inbox. */
  #enqueue(message: JsonRpcMessage): Promise<void> {
    const delivered = this.#deliveries.then(() => {
      if (!this.#inboxCompleted) this.#inbox.deliver(message);
    });
    this.#deliveries = delivered;
    return delivered;
  }

  /** Closes this end: no more sends from it; the inbox completes after what is already queued. */
  #end(info: TransportCloseInfo): Promise<void> {
    if (this.#closeInfo) return this.closed.then(() => {});
    // Deliveries already queued to this end still arrive; the stream completes after them.
    const pending = this.#deliveries;
    this.#closeInfo = info;
    return pending.then(() => {
      this.#inboxCompleted = true;
      this.#inbox.complete();
      this.#diagnostics.complete();
      this.#resolveClosed(info);
    });
  }
}
