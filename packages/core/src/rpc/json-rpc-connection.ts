import { Subject, type Observable, type Unsubscribable } from "rxjs";
import {
  CodexRpcError,
  ConnectionClosedError,
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_METHOD_NOT_FOUND,
  JSON_RPC_OVERLOADED,
  RequestAbortedError,
  RequestTimeoutError,
  ServerError,
  ServerOverloadedError,
  InvalidHandlerResultError,
  type TransportCloseInfo,
} from "../errors/errors.js";
import type { JsonRpcErrorObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcId } from "../framing/json-rpc-message.js";
import { Multicast } from "../util/multicast.js";
import { checkJson, describeThrown, excerptOf } from "../util/describe-value.js";
import { checkTimeout, startTimer, type CancelTimer } from "../util/long-timer.js";
import { loadWithin } from "./load-within.js";
import { resolveOverloadRetry, type OverloadRetryOptions } from "./overload-retry.js";
import type { Transport, TransportDiagnostic } from "../transport/transport.js";
import { listenDirectly } from "../transport/message-inbox.js";

/** The reply timeout of a connection whose options set none. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

export interface RequestOptions {
  /**
   * Milliseconds to wait for the reply (all retries included); the connection's default otherwise.
   * `Infinity` waits for ever; delays past 2^31−1 ms are honoured (not cut to 1 ms).
   */
  readonly timeoutMs?: number;
  /** Aborting rejects the request with RequestAbortedError (the server may still act on it). */
  readonly signal?: AbortSignal;
  /**
   * Called with the result if it comes after the request timed out or was aborted: the server acted
   * on it after all (a `turn/start` answered late has started a turn); with `undefined` if that
   * late reply is an error, or when the connection closes first (only `turn/start` uses it: one
   * per timed-out turn).
   */
  readonly onLateResult?: (result: unknown) => void;
}

/** A server-to-client request being answered: `signal` fires if the server withdraws it. */
export interface ServerRequestContext {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly signal: AbortSignal;
}

/** The connection's one answerer of server requests (the client's dispatcher); throw a JsonRpcReplyError to choose the error code. */
export type JsonRpcRequestHandler = (request: JsonRpcRequest, context: ServerRequestContext) => unknown;

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

/** What a user tunes of the JSON-RPC connection (part of `CodexClientOptions`). */
export interface ConnectionOptions {
  /** Default reply timeout in milliseconds (default 120 000; `Infinity` for none). */
  readonly requestTimeoutMs?: number;
  /** Retries of requests answered -32001 "Server overloaded". */
  readonly overloadRetry?: Partial<OverloadRetryOptions>;
  /** Send `"jsonrpc": "2.0"` on every message (codex does not need it; default false). */
  readonly sendJsonRpcVersion?: boolean;
}

/** The connection's options: the user's, and the hooks of the layer above (the client). */
export interface JsonRpcConnectionOptions extends ConnectionOptions {
  /** Answers server-to-client requests. Without one every request gets -32601. */
  readonly onServerRequest?: JsonRpcRequestHandler;
  /**
   * Called synchronously for every notification, before `notifications` emits it: the layer above
   * routes through this rather than through a Subject hop per message.
   */
  readonly onNotification?: (notification: JsonRpcNotification) => void;
}

/** Something the connection noticed that is not a message for anyone: reported, never fatal. */
export interface ConnectionDiagnostic extends Omit<TransportDiagnostic, "kind"> {
  readonly kind:
    | TransportDiagnostic["kind"]
    /** A reply whose id matches no pending request. */
    | "unknown-response"
    /** Neither request, notification nor reply (e.g. an `id` that is neither string nor number). */
    | "unclassifiable-message"
    /** A server-request handler threw, rejected, or returned something that cannot be sent; the server got -32603. */
    | "handler-error"
    /** With `validate`: a message that does not match the codex schema (it is still delivered). */
    | "validation-failed"
    /** A known notification lacking a field the client needs to route or fold it: delivered on `notifications()`, kept out of turns. */
    | "malformed-message"
    /** A bounded buffer was full: what it dropped is counted in the message. */
    | "buffer-overflow"
    /** A turn's background work failed (e.g. `turn/interrupt` refused, `thread/read` failing in the watchdog). */
    | "turn-recovery"
    /** The server runs another codex version than the client's protocol was generated from. */
    | "version-mismatch"
    /** A server request nothing answers (no handler, no option, no default): refused with -32601; the message says which option would answer it, or "no helper yet". */
    | "unhandled-server-request";
}

interface PendingRequest {
  readonly method: string;
  readonly id: JsonRpcId;
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
  readonly notifications$: Observable<JsonRpcNotification>;
  /** Transport and connection diagnostics (bad lines, unknown replies, failing handlers). */
  readonly diagnostics$: Observable<ConnectionDiagnostic>;
  /** Resolves once with how the transport ended. */
  readonly closed: Promise<TransportCloseInfo>;

  private readonly notificationSubject = new Multicast<JsonRpcNotification>();
  private readonly diagnosticSubject = new Subject<ConnectionDiagnostic>();
  private readonly pending = new Map<JsonRpcId, PendingRequest>();
  private readonly serverRequests = new Map<string, AbortController>();
  /** Requests given up on (timed out, aborted) that want their result should it still come. */
  private readonly lateResults = new Map<JsonRpcId, (result: unknown) => void>();
  /** Requests waiting out an overload backoff or a module loaded on demand: stopped when the connection closes. */
  private readonly backoffs = new Set<(error: unknown) => void>();
  private readonly requestTimeoutMs: number;
  private readonly retry: OverloadRetryOptions;
  private readonly subscriptions: Unsubscribable[] = [];
  private nextId = 1;
  private closeInfo: TransportCloseInfo | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly options: JsonRpcConnectionOptions = {},
  ) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    checkTimeout(this.requestTimeoutMs, "requestTimeoutMs");
    this.retry = resolveOverloadRetry(options.overloadRetry);
    this.notifications$ = this.notificationSubject.observable;
    this.diagnostics$ = this.diagnosticSubject.asObservable();
    this.subscriptions.push(
      transport.diagnostics$.subscribe((diagnostic) => this.diagnosticSubject.next(diagnostic)),
      listenDirectly(transport.messages$, (message) => this.dispatch(message)),
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
    checkTimeout(timeoutMs, "timeoutMs");
    const deadline = Date.now() + timeoutMs;
    try {
      return await this.sendOnce(method, params, deadline - Date.now(), timeoutMs, options.signal, options.onLateResult);
    } catch (error) {
      if (!(error instanceof ServerError) || error.rpcCode !== JSON_RPC_OVERLOADED) throw error;
      // The retries are in overload-backoff, loaded now, within what is left of the request's time;
      // should it fail to load, this is the only attempt.
      // Stopped by its deadline, signal or the close, it fails as the request would have.
      const retries = await this.load(method, import("./overload-backoff.js"), { timeoutMs, signal: options.signal }, deadline - Date.now()).catch(
        (failed: unknown) => {
          throw failed instanceof CodexRpcError ? failed : new ServerOverloadedError(method, error.requestId, error.rpcMessage, error.data, 1);
        },
      );
      return retries.retryOverloaded(error, {
        method,
        deadline,
        retry: this.retry,
        signal: options.signal,
        send: (remainingMs) => this.sendOnce(method, params, remainingMs, timeoutMs, options.signal, options.onLateResult),
        backoffs: this.backoffs,
        closeInfo: () => this.closeInfo,
      });
    }
  }

  /**
   * Waits for a module that call `method` loads on demand (`import()`) as the call would wait for
   * its reply (see loadWithin): within its timeout (`remainingMs` of it left), until its signal
   * aborts, or until the connection closes (ConnectionClosedError).
   */
  load<M>(method: string, load: Promise<M>, options: RequestOptions = {}, remainingMs?: number): Promise<M> {
    if (this.closeInfo) return Promise.reject(new ConnectionClosedError(this.closeInfo, { method }));
    return loadWithin(load, method, options.timeoutMs ?? this.requestTimeoutMs, options.signal, this.backoffs, remainingMs);
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
    onLateResult?: (result: unknown) => void,
  ): Promise<unknown> {
    const id = this.nextId++;
    if (this.closeInfo) return Promise.reject(new ConnectionClosedError(this.closeInfo, { method, id }));
    if (signal?.aborted) return Promise.reject(new RequestAbortedError(method, undefined, signal.reason));
    return new Promise<unknown>((resolve, reject) => {
      let cancelTimer: CancelTimer | undefined;
      // Given up on (timed out, aborted) while the server may still answer: a late result goes to onLateResult.
      const giveUp = (error: Error) =>
        settle(() => {
          if (onLateResult) this.lateResults.set(id, onLateResult);
          reject(error);
        });
      const onAbort = () => giveUp(new RequestAbortedError(method, id, signal?.reason));
      const settle = (finish: () => void) => {
        if (!this.pending.delete(id)) return;
        cancelTimer?.();
        signal?.removeEventListener("abort", onAbort);
        finish();
      };
      this.pending.set(id, {
        method,
        id,
        resolve: (result) => settle(() => resolve(result)),
        reject: (error) => settle(() => reject(error)),
      });
      cancelTimer = startTimer(remainingMs, () => giveUp(new RequestTimeoutError(method, id, timeoutMs)));
      signal?.addEventListener("abort", onAbort, { once: true });
      const message = params === undefined ? { id, method } : { id, method, params };
      let sent: Promise<void>;
      try {
        sent = this.transport.send(this.envelope(message));
      } catch (error) {
        // A transport that throws instead of rejecting (or params JSON cannot encode) must not leave the request pending.
        sent = Promise.reject(error);
      }
      sent.catch((error: unknown) => {
        // A write that met a dead server fails with the transport's close error, which names no
        // request, and often before this connection has seen the close: name this request.
        const pending = this.pending.get(id);
        pending?.reject(error instanceof ConnectionClosedError ? new ConnectionClosedError(this.closeInfo ?? error.close, { method, id }) : error);
      });
    });
  }

  /**
   * Classifies by keys: `method`+`id` request, `method` notification, `id`+`result`/`error` reply.
   * Nothing from the server may throw out of here: that would end the transport's stream, or
   * reach RxJS's unhandled-error hook and crash the program.
   */
  private dispatch(message: JsonRpcMessage): void {
    const record = message as unknown as Record<string, unknown>;
    const method = record.method;
    const id = record.id;
    // An id of 1e400 parses as Infinity, which JSON cannot echo back (it would go out as null).
    const hasValidId = (typeof id === "number" && Number.isFinite(id)) || typeof id === "string";
    if (typeof method === "string" && (hasValidId || !("id" in record))) {
      if (hasValidId) this.answer(message as JsonRpcRequest);
      else this.deliverNotification(message as JsonRpcNotification);
      return;
    }
    if (hasValidId && typeof method !== "string" && ("result" in record || "error" in record)) {
      this.settleReply(id, record);
      return;
    }
    this.diagnosticSubject.next({
      kind: "unclassifiable-message",
      message:
        "id" in record && !hasValidId
          ? `a message whose id is ${id === null ? "null" : typeof id === "number" ? "a number JSON cannot carry" : `a ${Array.isArray(id) ? "array" : typeof id}`}, not a string or number`
          : "a message that is neither request, notification nor reply",
      excerpt: excerptOf(message),
    });
  }

  private deliverNotification(notification: JsonRpcNotification): void {
    try {
      this.options.onNotification?.(notification);
    } catch (error) {
      // The layer above guards its own routing; this is the last line, so one bad message never
      // ends the stream of good ones.
      this.diagnosticSubject.next({
        kind: "malformed-message",
        message: `${notification.method}: could not be routed: ${describeThrown(error)}`,
        excerpt: excerptOf(notification),
      });
    }
    this.notificationSubject.next(notification);
  }

  private settleReply(id: JsonRpcId, record: Record<string, unknown>): void {
    const pending = this.pending.get(id);
    const late = this.lateResults.get(id);
    // Servers that serialise both members (JSON-RPC 1.0 style, or an optional field not skipped)
    // send `"error": null` beside the result of a success.
    const failed = "error" in record && !(record.error === null && "result" in record);
    if (late) {
      this.lateResults.delete(id);
      late(failed ? undefined : record.result);
      return;
    }
    if (!pending) {
      // The id itself may be huge: the diagnostic keeps an excerpt, never the payload.
      this.diagnosticSubject.next({ kind: "unknown-response", message: `reply for unknown or settled request id ${excerptOf(id)}` });
      return;
    }
    if (!failed) {
      pending.resolve(record.result);
      return;
    }
    const error = record.error;
    const fields = typeof error === "object" && error !== null ? (error as Partial<Record<keyof JsonRpcErrorObject, unknown>>) : {};
    const code = fields.code ?? JSON_RPC_INTERNAL_ERROR;
    const message =
      typeof fields.message === "string"
        ? fields.message
        : error === null || typeof error !== "object"
          ? `malformed error: ${excerptOf(error)}`
          : "unknown error";
    pending.reject(new ServerError(pending.method, id, code as number, message, fields.data));
  }

  /** Every server request gets exactly one answer, or the turn waiting on it hangs. */
  private answer(request: JsonRpcRequest): void {
    const key = typeof request.id === "string" ? `s${request.id}` : `n${request.id}`;
    if (this.serverRequests.has(key)) {
      // A second request with the id of one still being answered: answering both would send two
      // replies with one id, and the server could not tell them apart.
      this.diagnosticSubject.next({
        kind: "unclassifiable-message",
        message: `a second server request with id ${excerptOf(request.id)} while the first is unanswered`,
        excerpt: excerptOf(request),
      });
      return;
    }
    const controller = new AbortController();
    this.serverRequests.set(key, controller);
    const reply = (body: { result: unknown } | { error: JsonRpcErrorObject }) => {
      if (this.serverRequests.get(key) !== controller) return;
      this.serverRequests.delete(key);
      if (this.closeInfo) return;
      this.sendReply({ id: request.id, ...body } as JsonRpcMessage);
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
    const onResult = (result: unknown) => {
      const value = result === undefined ? null : result;
      const json = checkJson(value);
      if (json.ok) reply({ result: value });
      else reply({ error: this.handlerError(request, new InvalidHandlerResultError(request.method, json.reason)) });
    };
    const onError = (error: unknown) => reply({ error: this.handlerError(request, error) });
    // A thenable whose `then` throws, or a handler result whose `then` getter throws, is an error too.
    try {
      Promise.resolve(outcome).then(onResult, onError);
    } catch (error) {
      onError(error);
    }
  }

  /** Writes a reply; a reply that still fails to encode is replaced by a -32603 so the server is answered. */
  private sendReply(message: JsonRpcMessage): void {
    const send = (body: JsonRpcMessage) => this.transport.send(this.envelope(body));
    let sent: Promise<void>;
    try {
      sent = send(message);
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.catch((error: unknown) => {
      if (this.closeInfo || error instanceof ConnectionClosedError) return;
      const id = (message as { id: JsonRpcId }).id;
      this.diagnosticSubject.next({
        kind: "handler-error",
        message: `the reply to server request ${excerptOf(id)} could not be sent: ${describeThrown(error)}`,
      });
      send({ id, error: { code: JSON_RPC_INTERNAL_ERROR, message: "the client's reply could not be encoded" } } as JsonRpcMessage).catch(() => undefined);
    });
  }

  /** The server withdrew a request (`serverRequest/resolved`): its handler's signal fires. */
  withdrawServerRequest(id: JsonRpcId): boolean {
    const key = typeof id === "string" ? `s${id}` : `n${id}`;
    const controller = this.serverRequests.get(key);
    if (!controller) return false;
    this.serverRequests.delete(key);
    controller.abort(new Error(`server request ${excerptOf(id)} was resolved by the server`));
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
    if (isReplyError(error)) {
      const code = Number.isInteger(error.rpcCode) ? error.rpcCode : JSON_RPC_INTERNAL_ERROR;
      const message = describeThrown(error);
      return error.data === undefined || !checkJson(error.data).ok ? { code, message } : { code, message, data: error.data };
    }
    const message = describeThrown(error);
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
    for (const late of [...this.lateResults.values()]) late(undefined);
    this.lateResults.clear();
    for (const controller of this.serverRequests.values()) controller.abort(new ConnectionClosedError(info));
    this.serverRequests.clear();
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.notificationSubject.complete();
    this.diagnosticSubject.complete();
  }
}

/** `instanceof` itself throws for a revoked Proxy, and a handler can throw anything. */
export function isReplyError(error: unknown): error is JsonRpcReplyError {
  try {
    return error instanceof JsonRpcReplyError;
  } catch {
    return false;
  }
}
