import { BehaviorSubject, filter, map, ReplaySubject, Subject, type Observable } from "rxjs";
import {
  protocol as stableProtocol,
  type AskForApproval,
  type ClientInfo,
  type InitializeResponse,
  type ServerNotification,
  type ServerNotificationMap,
  type ServerRequestMap,
  type Thread as ProtocolThread,
} from "@codex-rpc/protocol";
import type {
  ClientRequestMethodOf,
  CodexProtocol,
  DefaultProtocolTypes,
  ParamsIn,
  ProtocolTypesShape,
  ProtocolValidatorsShape,
  ResultIn,
  ServerNotificationMethodOf,
  ServerNotificationOf,
  ServerRequestMethodOf,
  ThreadResumeParamsOf,
  ThreadStartParamsOf,
} from "../rpc/protocol-types.js";
import { answerApproval, isApprovalMethod, type ApprovalPolicy } from "./approval-policy.js";
import { callDynamicTool, dynamicToolSpecs, type DynamicTool } from "./dynamic-tools.js";
import {
  CodexRpcError,
  ConnectionClosedError,
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_METHOD_NOT_FOUND,
  MethodNotSupportedError,
  ProtocolError,
  ProtocolVersionMismatchError,
  ServerError,
  ValidationFailedError,
  type TransportCloseInfo,
} from "../errors/errors.js";
import { isUnknownMethodError, serverVersionOf } from "./server-version.js";
import {
  JsonRpcConnection,
  JsonRpcReplyError,
  type ConnectionDiagnostic,
  type JsonRpcConnectionOptions,
  type RequestOptions,
  type ServerRequestContext,
} from "../rpc/json-rpc-connection.js";
import type { JsonRpcNotification, JsonRpcRequest } from "../framing/json-rpc-message.js";
import { Multicast } from "../util/multicast.js";
import { backoffDelay } from "../util/backoff.js";
import { threadIdOf } from "../session/notification-routing.js";
import { malformedReason } from "../session/notification-shape.js";
import { describeThrown, excerptOf } from "../util/describe-value.js";
import { startTimer } from "../util/long-timer.js";
import { resolveReconnect, type Reconnection, type ReconnectOptions, type ResumedThread, type TransportFactory } from "./reconnect-policy.js";
import type { SessionHost, ThreadListener } from "../session/session-host.js";
import { Thread } from "../session/thread.js";
import type { Transport } from "../transport/transport.js";

/** The arguments of `request(method, …)`: params may be left out where the method takes none. */
export type RequestArgs<M extends ClientRequestMethodOf<T>, T extends ProtocolTypesShape = DefaultProtocolTypes> =
  undefined extends ParamsIn<T["clientRequests"], M>
    ? [params?: ParamsIn<T["clientRequests"], M>, options?: RequestOptions]
    : [params: ParamsIn<T["clientRequests"], M>, options?: RequestOptions];

/** Answers one kind of server request, typed by method (and by the client's protocol). */
export type ServerRequestHandlerFor<M extends ServerRequestMethodOf<T>, T extends ProtocolTypesShape = DefaultProtocolTypes> = (
  params: ParamsIn<T["serverRequests"], M>,
  context: ServerRequestContext,
) => ResultIn<T["serverRequests"], M> | Promise<ResultIn<T["serverRequests"], M>>;

/**
 * `connecting` until the handshake is done, then `open`; `reconnecting` while a client given a
 * TransportFactory and `reconnect` is getting a new connection; `closed` for good.
 */
export type ClientState = "connecting" | "open" | "reconnecting" | "closed";

/** How many diagnostics a late subscriber to `diagnostics` still sees, by default. */
const DEFAULT_DIAGNOSTICS_REPLAY = 100;

export interface CodexClientOptions<T extends ProtocolTypesShape = DefaultProtocolTypes> extends JsonRpcConnectionOptions {
  /**
   * The protocol the client is typed by, validates with and expects the server to speak: the
   * stable surface of `@codex-rpc/protocol` by default; `protocol` from
   * `@codex-rpc/protocol/experimental` for the experimental one (which also turns
   * `experimentalApi` on), or from a module `codex-rpc-gen generate` wrote for your codex version.
   */
  readonly protocol?: CodexProtocol<T>;
  /** Who is calling (default `{ name: "codex-rpc", version: "0.1.0" }`). */
  readonly clientInfo?: ClientInfo;
  /** Opt in to codex's experimental API surface (needed for dynamic tools; default: whether `protocol` is the experimental one). */
  readonly experimentalApi?: boolean;
  /** Notifications the server should not send at all. */
  readonly optOutNotificationMethods?: readonly string[];
  /** How approvals are answered when no handler is registered for them (default "decline"). */
  readonly approvals?: ApprovalPolicy;
  /**
   * The `approvalPolicy` sent with `thread/start` and `thread/resume` when their params name none
   * (default "untrusted": codex asks before every command it does not consider read-only, and the
   * `approvals` policy answers). codex's own default comes from its config and may be "never", so
   * the client never leaves it unsaid.
   */
  readonly defaultApprovalPolicy?: AskForApproval;
  /**
   * Default `turnTimeoutMs` for every turn: a turn still running this long after `run()` is
   * interrupted and its `completed` rejects with TurnTimeoutError. Default none.
   */
  readonly turnTimeoutMs?: number;
  /** Tools the model may call: declared on every `thread/start`, answered on `item/tool/call`. */
  readonly tools?: readonly DynamicTool[];
  /** Handlers for server requests, by method (the same as calling `handle` for each). */
  readonly handlers?: { readonly [M in ServerRequestMethodOf<T>]?: ServerRequestHandlerFor<M, T> };
  /**
   * Validate what the server sends (notification and request params, results) with the generated
   * validators: `true` to have the protocol's loaded, or pass them (`await protocol.loadValidators()`).
   * Failures are reported on `diagnostics`; results that fail reject.
   */
  readonly validate?: boolean | ProtocolValidatorsShape;
  /**
   * Refuse a server whose codex version (from `initialize`'s `userAgent`) is not the one this
   * client's protocol was generated from: `connect()` rejects with ProtocolVersionMismatchError.
   * Default false: the mismatch is reported on `diagnostics` (kind `version-mismatch`).
   */
  readonly strictVersion?: boolean;
  /** How many diagnostics a late subscriber to `diagnostics` still sees (default 100; each is bounded text). */
  readonly diagnosticsReplay?: number;
  /**
   * Reconnect when the connection drops (needs a TransportFactory): re-initialize, then resume
   * every thread this client had open. `true` for the defaults.
   */
  readonly reconnect?: boolean | ReconnectOptions;
}

/** After these a thread is no longer open here: it is not resumed after a reconnect. */
const THREAD_ENDINGS: ReadonlySet<string> = new Set(["thread/closed", "thread/archived", "thread/deleted"]);

/**
 * A typed client for one codex app-server connection: `connect()` runs the handshake
 * (`initialize`, then `initialized`); requests are typed by ClientRequestMap, notifications by
 * ServerNotificationMap; server requests are answered by registered handlers, the approval
 * policy, the tool registry or -32601. Methods a newer server adds pass through untyped.
 */
export class CodexClient<T extends ProtocolTypesShape = DefaultProtocolTypes> {
  /** What the server said about itself in reply to `initialize` (the latest, after a reconnect). */
  initializeResponse!: InitializeResponse;
  /** The codex version the server runs, read from `initializeResponse.userAgent` (undefined if it does not say). */
  serverVersion: string | undefined;
  /** The codex version this client's protocol types and validators were generated from. */
  readonly protocolVersion: string;
  readonly state$ = new BehaviorSubject<ClientState>("connecting");
  /** Resolves once the client is closed for good (after a reconnect gave up, too), with how the last connection ended. */
  readonly closed: Promise<TransportCloseInfo>;
  /** One event per successful reconnection: what was resumed and when the gap was. */
  readonly reconnections$: Observable<Reconnection>;

  #connection!: JsonRpcConnection;
  private readonly handlers = new Map<string, (params: unknown, context: ServerRequestContext) => unknown>();
  private readonly tools: ReadonlyMap<string, DynamicTool>;
  private validators: ValidatorTables | undefined;
  readonly #protocol: CodexProtocol<ProtocolTypesShape>;
  readonly #knownNotifications: ReadonlySet<string>;
  private readonly typedNotifications = new Multicast<ServerNotification>();
  /** Turns listening to their thread's notifications, by thread id: one map lookup per message. */
  private readonly threadListeners = new Map<string, Set<ThreadListener>>();
  private readonly untypedNotifications = new Multicast<JsonRpcNotification>();
  readonly #diagnostics: ReplaySubject<ConnectionDiagnostic>;
  readonly #reconnections = new Subject<Reconnection>();
  /** Threads started or resumed through this client, with their approval policy: resumed again after a reconnect. */
  readonly #openThreads = new Map<string, AskForApproval>();
  readonly #factory: TransportFactory | undefined;
  readonly #reconnect: Required<ReconnectOptions> | undefined;
  #closeRequested = false;
  /** How the last connection ended: what requests made while reconnecting fail with. */
  #lastClose: TransportCloseInfo | undefined;
  /** Reconnect attempts spent since the connection last stayed up for `stableAfterMs`. */
  #reconnectAttempts = 0;
  /** When the last reconnect succeeded. */
  #reconnectedAt: number | undefined;
  /** Set when the connection a reconnect attempt opened drops before the attempt is done. */
  #droppedDuringReconnect: TransportCloseInfo | undefined;
  #resolveClosed: (info: TransportCloseInfo) => void = () => {};
  /** Wakes a reconnect backoff when close() is called. */
  #wakeBackoff: (() => void) | undefined;
  /** What the threads and turns of this client use of it. */
  readonly #sessionHost: SessionHost;

  private constructor(
    transport: Transport,
    factory: TransportFactory | undefined,
    private readonly options: CodexClientOptions<T>,
  ) {
    this.#sessionHost = {
      request: (method, params) => this.#requestNow(method, params),
      listenToThread: (threadId, listener) => this.listenToThread(threadId, listener),
      report: (diagnostic) => this.#connection.report(diagnostic),
      turnTimeoutMs: options.turnTimeoutMs,
    };
    this.#protocol = options.protocol ?? (stableProtocol as CodexProtocol<ProtocolTypesShape>);
    this.#diagnostics = new ReplaySubject<ConnectionDiagnostic>(options.diagnosticsReplay ?? DEFAULT_DIAGNOSTICS_REPLAY);
    this.protocolVersion = this.#protocol.version;
    this.#knownNotifications = new Set(this.#protocol.serverNotificationMethods);
    this.tools = new Map((options.tools ?? []).map((tool) => [tool.name, tool]));
    this.#factory = factory;
    this.#reconnect = options.reconnect ? resolveReconnect(options.reconnect === true ? {} : options.reconnect) : undefined;
    this.reconnections$ = this.#reconnections.asObservable();
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    for (const [method, handler] of Object.entries(options.handlers ?? {})) {
      this.handle(method as ServerRequestMethodOf<T>, handler as ServerRequestHandlerFor<ServerRequestMethodOf<T>, T>);
    }
    this.#attach(transport);
  }

  /**
   * Opens a client: the handshake, then open. Closes the transport if it fails.
   *
   * Given a TransportFactory (a function that opens a fresh transport) and `reconnect`, the client
   * survives a dropped connection: requests in flight and running turns reject with
   * ConnectionClosedError, `state$` goes to `reconnecting`, and a new connection is opened with
   * backoff and jitter, initialized, and every open thread resumed (see `reconnections$`).
   */
  static async connect<T extends ProtocolTypesShape = DefaultProtocolTypes>(
    transport: Transport | TransportFactory,
    options: CodexClientOptions<T> = {},
  ): Promise<CodexClient<T>> {
    const factory = typeof transport === "function" ? transport : undefined;
    if (options.reconnect && !factory) {
      throw new TypeError("CodexClient.connect: `reconnect` needs a function that opens a new transport, not a transport");
    }
    // Checked before a transport is opened, so a bad option leaves nothing running.
    if (options.reconnect) resolveReconnect(options.reconnect === true ? {} : options.reconnect);
    const client = new CodexClient<T>(factory ? await factory() : (transport as Transport), factory, options);
    try {
      if (options.validate) {
        client.validators = (options.validate === true ? await client.#protocol.loadValidators() : options.validate) as ValidatorTables;
      }
      await client.#handshake();
    } catch (error) {
      client.#closeRequested = true;
      await client.close().catch(() => undefined);
      throw error;
    }
    client.state$.next("open");
    return client;
  }

  /** The default turn timeout (see `CodexClientOptions.turnTimeoutMs`). */
  get turnTimeoutMs(): number | undefined {
    return this.options.turnTimeoutMs;
  }

  /** The JSON-RPC connection in use (a new one after each reconnect). */
  get connection(): JsonRpcConnection {
    return this.#connection;
  }

  async #handshake(): Promise<void> {
    const options = this.options;
    this.initializeResponse = (await this.#request("initialize", {
      clientInfo: options.clientInfo ?? { name: "codex-rpc", version: "0.1.0" },
      capabilities: {
        experimentalApi: options.experimentalApi ?? this.#protocol.flavor === "experimental",
        ...(options.optOutNotificationMethods ? { optOutNotificationMethods: [...options.optOutNotificationMethods] } : {}),
      },
    })) as InitializeResponse;
    await this.#connection.notify("initialized");
    this.serverVersion = serverVersionOf(this.initializeResponse?.userAgent);
    if (this.serverVersion !== this.protocolVersion) {
      const mismatch = new ProtocolVersionMismatchError(this.serverVersion, this.protocolVersion);
      if (options.strictVersion) throw mismatch;
      this.#connection.report({ kind: "version-mismatch", message: mismatch.message });
    }
  }

  #attach(transport: Transport): void {
    const connection = new JsonRpcConnection(transport, {
      ...this.options,
      onServerRequest: (request, context) => this.answer(request, context),
      onNotification: (notification) => this.onNotification(notification),
    });
    this.#connection = connection;
    connection.diagnostics.subscribe((diagnostic) => this.#diagnostics.next(boundedDiagnostic(diagnostic)));
    void connection.closed.then((info) => this.#onConnectionClosed(connection, info));
  }

  #onConnectionClosed(connection: JsonRpcConnection, info: TransportCloseInfo): void {
    if (connection !== this.#connection) return; // a failed reconnect attempt's connection
    if (this.state$.value === "reconnecting") {
      this.#droppedDuringReconnect = info; // the attempt under way sees it and tries again
      return;
    }
    const error = new ConnectionClosedError(info);
    for (const listeners of [...this.threadListeners.values()]) for (const listener of [...listeners]) listener.closed(error);
    this.threadListeners.clear();
    const reconnecting = this.#reconnect && this.#factory && !this.#closeRequested && this.state$.value === "open" && info.reason !== "closed";
    this.#lastClose = info;
    // The loop settles everything itself; this catch is the guard that no bug of it goes unhandled.
    if (reconnecting) this.#reconnectAfter(info).catch(() => this.#finish(info));
    else this.#finish(info);
  }

  async #reconnectAfter(cause: TransportCloseInfo): Promise<void> {
    const policy = this.#reconnect!;
    const disconnectedAt = Date.now();
    this.state$.next("reconnecting");
    // A connection that drops soon after a reconnect did not recover: the attempts spent on it
    // still count, so a server that accepts and then drops cannot keep the client reconnecting.
    const recovered = this.#reconnectedAt === undefined || disconnectedAt - this.#reconnectedAt >= policy.stableAfterMs;
    if (recovered) this.#reconnectAttempts = 0;
    let lastClose = cause;
    for (let attempt = 1; this.#reconnectAttempts < policy.maxAttempts && !this.#closeRequested; attempt++) {
      this.#reconnectAttempts++;
      await this.#backoff(backoffDelay(this.#reconnectAttempts, policy));
      if (this.#closeRequested) break;
      this.#droppedDuringReconnect = undefined;
      let transport: Transport | undefined;
      try {
        transport = await this.#factory!();
        if (this.#closeRequested) {
          await transport.close();
          break;
        }
        this.#attach(transport);
        await this.#handshake();
      } catch (error) {
        lastClose = transport ? await this.#connection.close() : { reason: "error", error };
        continue;
      }
      const threads = await this.#resumeOpenThreads();
      if (this.#droppedDuringReconnect) {
        lastClose = this.#droppedDuringReconnect;
        continue;
      }
      this.#reconnectedAt = Date.now();
      this.state$.next("open");
      this.#reconnections.next({ cause, attempts: attempt, disconnectedAt, reconnectedAt: Date.now(), threads });
      return;
    }
    this.#finish(lastClose);
  }

  #backoff(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = startTimer(ms, done);
      function done(): void {
        cancel();
        resolve();
      }
      this.#wakeBackoff = done;
    });
  }

  async #resumeOpenThreads(): Promise<ResumedThread[]> {
    const resumed: ResumedThread[] = [];
    for (const [threadId, approvalPolicy] of this.#openThreads) {
      try {
        const { thread } = (await this.#request("thread/resume", { threadId, approvalPolicy })) as { thread: ProtocolThread };
        resumed.push({ threadId, resumed: true, thread });
      } catch (error) {
        resumed.push({ threadId, resumed: false, error: error instanceof Error ? error : new Error(String(error)) });
      }
    }
    return resumed;
  }

  /** Closed for good: every stream completes and `closed` resolves. */
  #finish(info: TransportCloseInfo): void {
    if (this.state$.value === "closed") return;
    this.typedNotifications.complete();
    this.untypedNotifications.complete();
    this.#diagnostics.complete();
    this.#reconnections.complete();
    this.state$.next("closed");
    this.state$.complete();
    this.#resolveClosed(info);
  }

  /** Sends a request typed by its method; resolves with the typed result. */
  request<M extends ClientRequestMethodOf<T>>(method: M, ...[params, options]: RequestArgs<M, T>): Promise<ResultIn<T["clientRequests"], M>> {
    return this.#requestNow(method, params, options) as Promise<ResultIn<T["clientRequests"], M>>;
  }

  /** The caller's requests fail at once while reconnecting: nothing waits silently for a connection that may never come. */
  #requestNow(method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    if (this.state$.value === "reconnecting") return Promise.reject(new ConnectionClosedError(this.#lastClose ?? { reason: "eof" }, { method }));
    return this.#request(method, params, options);
  }

  async #request(method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    const result = await this.connection.request(method, params, options).catch((error: unknown) => {
      throw this.#unsupported(error);
    });
    if (method === "thread/unsubscribe") this.#openThreads.delete((params as { threadId: string }).threadId);
    const validate = this.validators?.clientRequestValidators[method]?.result;
    const errors = validate && validationErrors(validate, result);
    if (errors) throw new ValidationFailedError(method, "result", errors);
    return result;
  }

  /** A request for a method this version's types do not know (a newer server's). */
  requestUntyped(method: string, params?: unknown, options?: RequestOptions): Promise<unknown> {
    if (this.state$.value === "reconnecting") return Promise.reject(new ConnectionClosedError(this.#lastClose ?? { reason: "eof" }, { method }));
    return this.connection.request(method, params, options).catch((error: unknown) => {
      throw this.#unsupported(error);
    });
  }

  /** A server that does not know a method says so with -32600 "unknown variant": name both versions. */
  #unsupported(error: unknown): unknown {
    if (!(error instanceof ServerError) || error.code !== "SERVER_ERROR") return error;
    if (!isUnknownMethodError(error.rpcCode, error.rpcMessage, error.method)) return error;
    return new MethodNotSupportedError(error, this.serverVersion, this.protocolVersion);
  }

  /** Notifications, typed: all of them, or one method's params. Hot and shared. */
  notifications(): Observable<ServerNotificationOf<T>>;
  notifications<M extends ServerNotificationMethodOf<T>>(method: M): Observable<ParamsIn<T["serverNotifications"], M>>;
  notifications(method?: string): Observable<unknown> {
    if (method === undefined) return this.typedNotifications.observable;
    return this.typedNotifications.observable.pipe(
      filter((notification) => notification.method === method),
      map((notification) => notification.params),
    );
  }

  /** Notifications whose method this version's types do not know (a newer server's), untyped. */
  unknownNotifications(): Observable<JsonRpcNotification> {
    return this.untypedNotifications.observable;
  }

  /** What the transport and connection noticed: bad lines, failing handlers, failed validation (across reconnects). */
  get diagnostics(): Observable<ConnectionDiagnostic> {
    return this.#diagnostics.asObservable();
  }

  /**
   * Answers a kind of server request. Returns a disposer; a second handler for the same method
   * throws (dispose the first one to replace it).
   */
  handle<M extends ServerRequestMethodOf<T>>(method: M, handler: ServerRequestHandlerFor<M, T>): () => void {
    if (this.handlers.has(method)) {
      throw new CodexRpcError("HANDLER_ALREADY_REGISTERED", `a handler for ${method} is already registered; dispose it first`);
    }
    const entry = handler as (params: unknown, context: ServerRequestContext) => unknown;
    this.handlers.set(method, entry);
    return () => {
      if (this.handlers.get(method) === entry) this.handlers.delete(method);
    };
  }

  /** Starts a thread; registered tools are declared on it; `approvalPolicy` defaults to `defaultApprovalPolicy`. */
  async startThread(params: ThreadStartParamsOf<T> = {} as ThreadStartParamsOf<T>): Promise<Thread<T>> {
    const given = params as { approvalPolicy?: AskForApproval };
    const approvalPolicy = given.approvalPolicy ?? this.options.defaultApprovalPolicy ?? "untrusted";
    const withTools = this.tools.size > 0 ? { ...given, approvalPolicy, dynamicTools: dynamicToolSpecs([...this.tools.values()]) } : { ...given, approvalPolicy };
    const thread = threadOf("thread/start", await this.#requestNow("thread/start", withTools));
    this.#openThreads.set(thread.id, approvalPolicy);
    return new Thread<T>(this.#sessionHost, thread as never);
  }

  /** Resumes a stored thread by id; `approvalPolicy` defaults to `defaultApprovalPolicy`. */
  async resumeThread(threadId: string, params: Omit<ThreadResumeParamsOf<T>, "threadId"> = {} as Omit<ThreadResumeParamsOf<T>, "threadId">): Promise<Thread<T>> {
    const given = params as { approvalPolicy?: AskForApproval };
    const approvalPolicy = given.approvalPolicy ?? this.options.defaultApprovalPolicy ?? "untrusted";
    const thread = threadOf("thread/resume", await this.#requestNow("thread/resume", { ...given, approvalPolicy, threadId }));
    this.#openThreads.set(thread.id, approvalPolicy);
    return new Thread<T>(this.#sessionHost, thread as never);
  }

  /** Closes the connection (and, for process transports, the server); stops reconnecting. */
  async close(): Promise<TransportCloseInfo> {
    this.#closeRequested = true;
    this.#wakeBackoff?.();
    const info = await this.#connection.close();
    this.#finish(info);
    return this.closed;
  }

  /**
   * Routes one notification. A message that lacks what the client reads is reported once (as
   * `validation-failed` with validators, else `malformed-message`), still delivered on
   * `notifications()`, and kept out of turns and client state.
   */
  private onNotification(notification: JsonRpcNotification): void {
    // A method this version does not know goes to unknownNotifications() only, never to the typed
    // streams or a turn's events: they promise ServerNotification.
    if (!this.#knownNotifications.has(notification.method)) {
      this.untypedNotifications.next(notification);
      return;
    }
    const reported = this.validators ? this.validate(notification) : false;
    const malformed = malformedReason(notification.method, notification.params);
    if (malformed !== undefined) {
      if (!reported) this.connection.report({ kind: "malformed-message", message: `${notification.method}: ${malformed}`, excerpt: excerptOf(notification) });
      this.typedNotifications.next(notification as ServerNotification);
      return;
    }
    if (THREAD_ENDINGS.has(notification.method)) {
      const threadId = threadIdOf(notification.params);
      if (threadId !== undefined) this.#openThreads.delete(threadId);
    }
    if (notification.method === "serverRequest/resolved") {
      const params = notification.params as ServerNotificationMap["serverRequest/resolved"]["params"];
      this.connection.withdrawServerRequest(params.requestId);
    }
    this.typedNotifications.next(notification as ServerNotification);
    const threadId = threadIdOf(notification.params);
    const listeners = threadId === undefined ? undefined : this.threadListeners.get(threadId);
    if (listeners) {
      for (const listener of listeners) {
        try {
          listener.notification(notification as ServerNotification);
        } catch (error) {
          // One turn tripping over a message must not keep it from the thread's other turns.
          this.connection.report({ kind: "malformed-message", message: `${notification.method}: a turn could not use it: ${describeThrown(error)}`, excerpt: excerptOf(notification) });
        }
      }
    }
  }

  /** Reports a notification that fails its schema; returns whether it did. */
  private validate(notification: JsonRpcNotification): boolean {
    const validate = this.validators?.serverNotificationValidators[notification.method]?.params;
    if (!validate) return false;
    const errors = validationErrors(validate, notification.params);
    if (!errors) return false;
    // Still delivered: a message is never lost, and the mismatch is reported.
    const error = new ValidationFailedError(notification.method, "params", errors);
    this.connection.report({ kind: "validation-failed", message: error.message, excerpt: excerptOf(notification) });
    return true;
  }

  /**
   * Gives `listener` every notification of one thread, and the close error if the connection
   * closes first, until the returned disposer is called.
   */
  listenToThread(threadId: string, listener: ThreadListener): () => void {
    let listeners = this.threadListeners.get(threadId);
    if (!listeners) this.threadListeners.set(threadId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.threadListeners.get(threadId) === listeners) this.threadListeners.delete(threadId);
    };
  }

  /** How many turns listen for their thread's notifications (for leak checks). */
  get threadListenerCount(): number {
    let count = 0;
    for (const listeners of this.threadListeners.values()) count += listeners.size;
    return count;
  }

  /** How many subscribers `notifications()` and `unknownNotifications()` have together now (for leak checks). */
  get notificationSubscriberCount(): number {
    return this.typedNotifications.subscriberCount + this.untypedNotifications.subscriberCount;
  }

  private answer(request: JsonRpcRequest, context: ServerRequestContext): unknown {
    const validate = this.validators?.serverRequestValidators[request.method]?.params;
    const errors = validate && validationErrors(validate, request.params);
    if (errors) {
      this.connection.report({ kind: "validation-failed", message: new ValidationFailedError(request.method, "params", errors).message, excerpt: excerptOf(request) });
    }
    if (!errors) return this.#dispatchServerRequest(request, context);
    // A request already reported as invalid gets its error reply without a second diagnostic.
    let outcome: unknown;
    try {
      outcome = this.#dispatchServerRequest(request, context);
    } catch (error) {
      outcome = Promise.reject(error);
    }
    return Promise.resolve(outcome).catch((error: unknown) => {
      if (error instanceof JsonRpcReplyError) throw error;
      throw new JsonRpcReplyError(JSON_RPC_INTERNAL_ERROR, `client handler for ${request.method} failed on params that do not match the codex schema: ${describeThrown(error)}`);
    });
  }

  #dispatchServerRequest(request: JsonRpcRequest, context: ServerRequestContext): unknown {
    const handler = this.handlers.get(request.method);
    if (handler) return handler(request.params, context);
    if (isApprovalMethod(request.method)) return answerApproval(this.options.approvals ?? "decline", request.method, request.params, context.signal);
    if (request.method === "item/tool/call" && this.tools.size > 0) {
      return callDynamicTool(this.tools, request.params as ServerRequestMap["item/tool/call"]["params"], context.signal);
    }
    throw new JsonRpcReplyError(JSON_RPC_METHOD_NOT_FOUND, `Method not found: ${request.method} (no handler registered in this client)`);
  }
}

/** A validator's errors, or undefined when the value passes. A validator can overflow the stack on a deeply nested value: that is a failure too. */
function validationErrors(validate: { (value: unknown): boolean; errors?: readonly unknown[] | null }, value: unknown): readonly unknown[] | undefined {
  try {
    return validate(value) ? undefined : (validate.errors ?? []);
  } catch (error) {
    return [{ message: `the validator could not check it: ${describeThrown(error)}` }];
  }
}

/** The thread of a `thread/start` or `thread/resume` result; a result without one is a ProtocolError, not a TypeError later. */
function threadOf(method: string, result: unknown): ProtocolThread {
  const thread = typeof result === "object" && result !== null ? (result as { thread?: unknown }).thread : undefined;
  if (typeof thread !== "object" || thread === null) throw new ProtocolError(method, "the result has no `thread`");
  if (typeof (thread as { id?: unknown }).id !== "string") throw new ProtocolError(method, "the result's `thread.id` is not a string");
  return thread as ProtocolThread;
}

/** Diagnostics are replayed to late subscribers: each keeps a bounded text, never a payload. */
function boundedDiagnostic(diagnostic: ConnectionDiagnostic): ConnectionDiagnostic {
  const { message, excerpt } = diagnostic;
  if (message.length <= 1000 && (excerpt === undefined || excerpt.length <= 200)) return diagnostic;
  return { ...diagnostic, message: message.slice(0, 1000), ...(excerpt === undefined ? {} : { excerpt: excerpt.slice(0, 200) }) };
}

/** How the client looks validators up: by method, each possibly missing (another version's table). */
type ValidatorFunction = { (value: unknown): boolean; errors?: readonly unknown[] | null };
interface ValidatorTables {
  readonly clientRequestValidators: Readonly<Record<string, { readonly result?: ValidatorFunction } | undefined>>;
  readonly serverRequestValidators: Readonly<Record<string, { readonly params?: ValidatorFunction } | undefined>>;
  readonly serverNotificationValidators: Readonly<Record<string, { readonly params?: ValidatorFunction } | undefined>>;
}
