import { Subject, type Observable, type Subscription } from "rxjs";
import {
  ConnectionClosedError,
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_METHOD_NOT_FOUND,
  JSON_RPC_OVERLOADED,
  RequestAbortedError,
  RequestTimeoutError,
  ServerError,
  ServerOverloadedError,
  type TransportCloseInfo,
} from "./errors.js";
import type {
  JsonRpcErrorObject,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  RequestId,
} from "./json-rpc-message.js";
import { Multicast } from "./multicast.js";
import { backoffDelay } from "./backoff.js";
import { resolveOverloadRetry, type OverloadRetryOptions } from "./overload-retry.js";
import type { Transport, TransportDiagnostic } from "./transport.js";

export interface RequestOptions {
  /** Milliseconds to wait for the reply (all retries included); the connection's default otherwise. */
  readonly timeoutMs?: number;
  /** Aborting rejects the request with RequestAbortedError (the server may still act on it). */
  readonly signal?: AbortSignal;
}

/** A server-to-client request being answered: `signal` fires if the server withdraws it. */
export interface ServerRequestContext {
  readonly id: RequestId;
  readonly method: string;
  readonly signal: AbortSignal;
}

/** Answers one server request; throw a JsonRpcReplyError to choose the error code. */
export type ServerRequestHandler = (request: JsonRpcRequest, context: ServerRequestContext) => unknown;

/** Thrown by a server-request handler to answer with a specific JSON-RPC error. */
export class JsonRpcReplyError extends Error {
  constructor(
    readonly rpcCode: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface JsonRpcConnectionOptions {
  /** Default reply timeout in milliseconds (default 120 000). */
  readonly requestTimeoutMs?: number;
  /** Retries of requests answered -32001 "Server overloaded". */
  readonly overloadRetry?: Partial<OverloadRetryOptions>;
  /** Send `"jsonrpc": "2.0"` on every message (codex does not need it; default false). */
  readonly sendJsonRpcVersion?: boolean;
  /** Answers server-to-client requests. Without one every request gets -32601. */
  readonly onServerRequest?: ServerRequestHandler;
  /**
   * Called synchronously for every notification, before `notifications` emits it: the layer above
   * routes through this rather than through a Subject hop per message.
   */
  readonly onNotification?: (notification: JsonRpcNotification) => void;
}

/** Something the connection noticed that is not a message for anyone: reported, never fatal. */
export interface ConnectionDiagnostic extends Omit<TransportDiagnostic, "kind"> {
  readonly kind: TransportDiagnostic["kind"] | "unknown-response" | "unclassifiable-message" | "handler-error" | "validation-failed";
}

interface PendingRequest {
  readonly method: string;
  readonly id: RequestId;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * JSON-RPC "lite" over a Transport: integer ids, replies matched by id, per-request timeout and
 * AbortSignal, -32001 retried with backoff, every pending request rejected with the close cause.
 * Messages are classified by their keys and dispatched synchronously, in arrival order.
 */
export class JsonRpcConnection {
  /** Every notification from the server, in order. Hot: subscribe before sending what causes them. */
  readonly notifications: Observable<JsonRpcNotification>;
  /** Transport and connection diagnostics (bad lines, unknown replies, failing handlers). */
  readonly diagnostics: Observable<ConnectionDiagnostic>;
  /** Resolves once with how the transport ended. */
  readonly closed: Promise<TransportCloseInfo>;

  private readonly notificationSubject = new Multicast<JsonRpcNotification>();
  private readonly diagnosticSubject = new Subject<ConnectionDiagnostic>();
  private readonly pending = new Map<RequestId, PendingRequest>();
  private readonly serverRequests = new Map<string, AbortController>();
  /** Requests waiting out an overload backoff: stopped when the connection closes. */
  private readonly backoffs = new Set<(error: unknown) => void>();
  private readonly requestTimeoutMs: number;
  private readonly retry: OverloadRetryOptions;
  private readonly subscriptions: Subscription[] = [];
  private nextId = 1;
  private closeInfo: TransportCloseInfo | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly options: JsonRpcConnectionOptions = {},
  ) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? 120_000;
    this.retry = resolveOverloadRetry(options.overloadRetry);
    this.notifications = this.notificationSubject.observable;
    this.diagnostics = this.diagnosticSubject.asObservable();
    this.subscriptions.push(
      transport.diagnostics.subscribe((diagnostic) => this.diagnosticSubject.next(diagnostic)),
      transport.messages.subscribe({ next: (message) => this.dispatch(message) }),
    );
    this.closed = transport.closed.then((info) => {
      this.shutDown(info);
      return info;
    });
  }

  /** How many requests await a reply (for leak checks). */
  get pendingRequestCount(): number {
    return this.pending.size;
  }

  /** How many subscribers `notifications` has now (for leak checks). */
  get notificationSubscriberCount(): number {
    return this.notificationSubject.subscriberCount;
  }

  /** Whether the transport has closed. */
  get isClosed(): boolean {
    return this.closeInfo !== undefined;
  }

  /** Sends a request and resolves with its result; retries -32001 with backoff and jitter. */
  async request(method: string, params?: unknown, options: RequestOptions = {}): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sendOnce(method, params, deadline - Date.now(), timeoutMs, options.signal);
      } catch (error) {
        if (!(error instanceof ServerError) || error.rpcCode !== JSON_RPC_OVERLOADED) throw error;
        if (attempt > this.retry.maxRetries) {
          throw new ServerOverloadedError(method, error.requestId, error.rpcMessage, error.data, attempt);
        }
        const delay = backoffDelay(attempt, this.retry);
        if (Date.now() + delay >= deadline) {
          throw new ServerOverloadedError(method, error.requestId, error.rpcMessage, error.data, attempt);
        }
        await this.sleep(delay, method, options.signal);
      }
    }
  }

  /** Sends a notification (no reply). Resolves when it has been handed to the transport. */
  async notify(method: string, params?: unknown): Promise<void> {
    if (this.closeInfo) throw new ConnectionClosedError(this.closeInfo);
    await this.transport.send(this.envelope(params === undefined ? { method } : { method, params }));
  }

  /** Closes the transport; pending requests reject with ConnectionClosedError. */
  async close(): Promise<TransportCloseInfo> {
    await this.transport.close();
    return this.closed;
  }

  private sendOnce(
    method: string,
    params: unknown,
    remainingMs: number,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const id = this.nextId++;
    if (this.closeInfo) return Promise.reject(new ConnectionClosedError(this.closeInfo, { method, id }));
    if (signal?.aborted) return Promise.reject(new RequestAbortedError(method, undefined, signal.reason));
    return new Promise<unknown>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => settle(() => reject(new RequestAbortedError(method, id, signal?.reason)));
      const settle = (finish: () => void) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        finish();
      };
      this.pending.set(id, {
        method,
        id,
        resolve: (result) => settle(() => resolve(result)),
        reject: (error) => settle(() => reject(error)),
      });
      timer = setTimeout(() => settle(() => reject(new RequestTimeoutError(method, id, timeoutMs))), Math.max(0, remainingMs));
      signal?.addEventListener("abort", onAbort, { once: true });
      const message = params === undefined ? { id, method } : { id, method, params };
      this.transport.send(this.envelope(message)).catch((error: unknown) => {
        // A write that met a dead server fails with the transport's close error, which names no
        // request, and often before this connection has seen the close: name this request.
        const pending = this.pending.get(id);
        pending?.reject(error instanceof ConnectionClosedError ? new ConnectionClosedError(this.closeInfo ?? error.close, { method, id }) : error);
      });
    });
  }

  /** The backoff before a retry; ends early (rejecting) on abort or when the connection closes. */
  private sleep(ms: number, method: string, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const stop = (error: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.backoffs.delete(stop);
        reject(error);
      };
      const onAbort = () => stop(new RequestAbortedError(method, undefined, signal?.reason));
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        this.backoffs.delete(stop);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.backoffs.add(stop);
    });
  }

  /** Classifies by keys: `method`+`id` request, `method` notification, `id`+`result`/`error` reply. */
  private dispatch(message: JsonRpcMessage): void {
    const record = message as unknown as Record<string, unknown>;
    const method = record["method"];
    const id = record["id"];
    if (typeof method === "string") {
      if (typeof id === "number" || typeof id === "string") this.answer(message as JsonRpcRequest);
      else {
        this.options.onNotification?.(message as JsonRpcNotification);
        this.notificationSubject.next(message as JsonRpcNotification);
      }
      return;
    }
    if ((typeof id === "number" || typeof id === "string") && ("result" in record || "error" in record)) {
      const pending = this.pending.get(id);
      if (!pending) {
        this.diagnosticSubject.next({ kind: "unknown-response", message: `reply for unknown or settled request id ${JSON.stringify(id)}` });
        return;
      }
      if ("error" in record) {
        const error = (record["error"] ?? {}) as Partial<JsonRpcErrorObject>;
        pending.reject(
          new ServerError(pending.method, id, Number(error.code ?? JSON_RPC_INTERNAL_ERROR), String(error.message ?? "unknown error"), error.data),
        );
      } else {
        pending.resolve(record["result"]);
      }
      return;
    }
    this.diagnosticSubject.next({
      kind: "unclassifiable-message",
      message: "a message that is neither request, notification nor reply",
      excerpt: JSON.stringify(message).slice(0, 200),
    });
  }

  /** Every server request gets exactly one answer, or the turn waiting on it hangs. */
  private answer(request: JsonRpcRequest): void {
    const key = JSON.stringify(request.id);
    const controller = new AbortController();
    this.serverRequests.set(key, controller);
    const reply = (body: { result: unknown } | { error: JsonRpcErrorObject }) => {
      if (this.serverRequests.get(key) !== controller) return;
      this.serverRequests.delete(key);
      if (this.closeInfo) return;
      this.transport.send(this.envelope({ id: request.id, ...body } as JsonRpcMessage)).catch(() => undefined);
    };
    const handler = this.options.onServerRequest;
    if (!handler) {
      reply({ error: { code: JSON_RPC_METHOD_NOT_FOUND, message: `Method not found: ${request.method}` } });
      return;
    }
    let outcome: unknown;
    try {
      outcome = handler(request, { id: request.id, method: request.method, signal: controller.signal as AbortSignal });
    } catch (error) {
      reply({ error: this.handlerError(request, error) });
      return;
    }
    Promise.resolve(outcome).then(
      (result) => reply({ result: result === undefined ? null : result }),
      (error: unknown) => reply({ error: this.handlerError(request, error) }),
    );
  }

  /** The server withdrew a request (`serverRequest/resolved`): its handler's signal fires. */
  withdrawServerRequest(id: RequestId): boolean {
    const key = JSON.stringify(id);
    const controller = this.serverRequests.get(key);
    if (!controller) return false;
    this.serverRequests.delete(key);
    controller.abort(new Error(`server request ${key} was resolved by the server`));
    return true;
  }

  /** Adds a diagnostic of the layers above (e.g. a message that failed validation). */
  report(diagnostic: ConnectionDiagnostic): void {
    this.diagnosticSubject.next(diagnostic);
  }

  /** How many server requests await our answer (for leak checks). */
  get pendingServerRequestCount(): number {
    return this.serverRequests.size;
  }

  private handlerError(request: JsonRpcRequest, error: unknown): JsonRpcErrorObject {
    if (error instanceof JsonRpcReplyError) {
      return error.data === undefined ? { code: error.rpcCode, message: error.message } : { code: error.rpcCode, message: error.message, data: error.data };
    }
    const message = error instanceof Error ? error.message : String(error);
    this.diagnosticSubject.next({ kind: "handler-error", message: `handler for ${request.method} failed: ${message}` });
    return { code: JSON_RPC_INTERNAL_ERROR, message: `client handler for ${request.method} failed: ${message}` };
  }

  private envelope(message: JsonRpcMessage): JsonRpcMessage {
    return this.options.sendJsonRpcVersion ? ({ jsonrpc: "2.0", ...message } as unknown as JsonRpcMessage) : message;
  }

  private shutDown(info: TransportCloseInfo): void {
    if (this.closeInfo) return;
    this.closeInfo = info;
    for (const pending of [...this.pending.values()]) {
      pending.reject(new ConnectionClosedError(info, { method: pending.method, id: pending.id }));
    }
    for (const stop of [...this.backoffs]) stop(new ConnectionClosedError(info));
    for (const controller of this.serverRequests.values()) controller.abort(new ConnectionClosedError(info));
    this.serverRequests.clear();
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.notificationSubject.complete();
    this.diagnosticSubject.complete();
  }
}
