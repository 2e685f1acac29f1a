import { BehaviorSubject, ReplaySubject, Subject, type Observable } from "rxjs";
import type { AskForApproval, ClientInfo, InitializeResponse, ServerRequestMap, Thread as ProtocolThread } from "@codex-rpc/protocol";
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
import type { ApprovalPolicy } from "./approval-policy.js";
import type { DynamicTool } from "./dynamic-tools.js";
import { loadOptionalParts, type OptionalParts } from "./optional-parts.js";
import { STABLE_PROTOCOL } from "./stable-protocol.js";
import {
  ConnectionClosedError,
  InvalidOptionError,
  MethodNotSupportedError,
  ProtocolError,
  ProtocolVersionMismatchError,
  RequestAbortedError,
  ServerError,
  ValidationFailedError,
  type TransportCloseInfo,
} from "../errors/errors.js";
import { isUnknownMethodError, serverVersionOf } from "./server-version.js";
import {
  JsonRpcConnection,
  type ConnectionDiagnostic,
  type ConnectionOptions,
  type RequestOptions,
  type ServerRequestContext,
} from "../rpc/json-rpc-connection.js";
import type { JsonRpcNotification } from "../framing/json-rpc-message.js";
import { NotificationRouter } from "./notification-router.js";
import type { Reconnector } from "./reconnector.js";
import type { Reconnection, ReconnectOptions, TransportFactory } from "./reconnect-policy.js";
import { ServerRequestDispatcher, type UntypedServerRequestHandler } from "./server-request-dispatcher.js";
import { validationErrors, type ValidatorTables } from "./validator-tables.js";
import type { SessionHost, ThreadListener } from "../session/session-host.js";
import type { CodexCommand } from "../session/codex-command.js";
import { CodexAccount } from "./account-api.js";
import type { ApiHost } from "./api-host.js";
import { startCommand, type ExecOptions } from "./command-exec.js";
import { CodexFs } from "./fs-api.js";
import { listModels, type ModelListOptions, type ModelOf } from "./model-list.js";
import { CodexThread } from "../session/codex-thread.js";
import { paginate, type ListOptions, type PageEntryIn } from "../session/paginate.js";
import type { Transport } from "../transport/transport.js";
import { asyncDisposeSymbol, disposer, type Disposer } from "../util/dispose-symbols.js";

type ThreadForkParamsOf<T extends ProtocolTypesShape> = Exclude<ParamsIn<T["clientRequests"], "thread/fork">, undefined>;
type ThreadListParamsOf<T extends ProtocolTypesShape> = Exclude<ParamsIn<T["clientRequests"], "thread/list">, undefined>;

/** The arguments of `request(method, …)`: params may be left out where the method takes none. */
export type RequestArgs<M extends ClientRequestMethodOf<T>, T extends ProtocolTypesShape = DefaultProtocolTypes> =
  undefined extends ParamsIn<T["clientRequests"], M>
    ? [params?: ParamsIn<T["clientRequests"], M>, options?: RequestOptions]
    : [params: ParamsIn<T["clientRequests"], M>, options?: RequestOptions];

/**
 * Answers one kind of server request, typed by method (and by the client's protocol).
 */
export type ServerRequestHandler<M extends ServerRequestMethodOf<T>, T extends ProtocolTypesShape = DefaultProtocolTypes> = (
  params: ParamsIn<T["serverRequests"], M>,
  context: ServerRequestContext,
) => ResultIn<T["serverRequests"], M> | Promise<ResultIn<T["serverRequests"], M>>;

/**
 * The handler of an option that answers server request `M` (`elicitations`, `userInput`,
 * `refreshChatgptAuthTokens`): params typed by the client's protocol; the result in its shape or in
 * that of `@codex-rpc/protocol`, which the client checks answers against. (The second keeps
 * literals such as `action: "accept"` typed while TypeScript is still inferring the protocol in
 * `connect({ … })`, where a result typed by the protocol alone widens them to `string`.)
 */
type ServerRequestOption<M extends keyof ServerRequestMap, T extends ProtocolTypesShape> = (
  params: ParamsIn<T["serverRequests"], M>,
  context: ServerRequestContext,
) => OptionResult<M, T> | Promise<OptionResult<M, T>>;
type OptionResult<M extends keyof ServerRequestMap, T extends ProtocolTypesShape> = ResultIn<T["serverRequests"], M> | ServerRequestMap[M]["result"];

/**
 * `connecting` until the handshake is done, then `open`; `reconnecting` while a client given a
 * TransportFactory and `reconnect` is getting a new connection; `closed` for good.
 */
export type ClientState = "connecting" | "open" | "reconnecting" | "closed";

/** How many diagnostics a late subscriber to `diagnostics` still sees, by default. */
const DEFAULT_DIAGNOSTICS_REPLAY = 100;

export interface CodexClientOptions<T extends ProtocolTypesShape = DefaultProtocolTypes> extends ConnectionOptions {
  /**
   * The protocol the client is typed by, validates with and expects the server to speak: the
   * stable surface of `@codex-rpc/protocol` by default; `protocol` from
   * `@codex-rpc/protocol/experimental` for the experimental one (which also turns
   * `experimentalApi` on), or from a module `codex-rpc-gen generate` wrote for your codex version.
   */
  readonly protocol?: CodexProtocol<T>;
  /** Who is calling (default `{ name: "codex-rpc", version: "0.1.0" }`). */
  readonly clientInfo?: ClientInfo;
  /**
   * Opt in to codex's experimental API surface. Default: on when `protocol` is the experimental one
   * or `tools` are given (codex declares dynamic tools only to experimental clients); `false`
   * together with `tools` is an InvalidOptionError.
   */
  readonly experimentalApi?: boolean;
  /**
   * Aborts the handshake: `connect()` closes the transport (a process transport ends its server)
   * and rejects with RequestAbortedError. It guards `connect()` only; aborting once the client is
   * open does nothing (call `close()`, or `await using` the client).
   */
  readonly signal?: AbortSignal;
  /** Notifications the server should not send at all. */
  readonly optOutNotificationMethods?: readonly string[];
  /**
   * How approvals are answered when no handler is registered for them (default "decline"): command,
   * file-change and permission approvals, and MCP elicitations that ask yes or no (kind
   * `mcpElicitation`: codex asks this way before it runs an MCP tool).
   */
  readonly approvals?: ApprovalPolicy<NoInfer<T>>;
  /**
   * Answers MCP elicitations that ask for content: a form with fields (return `{ action: "accept",
   * content }`, checked against the form's `requestedSchema`) or a URL to open. Default: declined.
   * Yes/no elicitations go to `approvals`.
   */
  readonly elicitations?: ServerRequestOption<"mcpServer/elicitation/request", NoInfer<T>>;
  /**
   * Answers `item/tool/requestUserInput` (the model's `request_user_input` questions); the answers
   * are checked against the questions (`userInputAnswers({ id: "label" })` builds them). Default:
   * `{ answers: {} }`, no answer, which the model reads and the turn goes on.
   */
  readonly userInput?: ServerRequestOption<"item/tool/requestUserInput", NoInfer<T>>;
  /**
   * Gives codex fresh ChatGPT tokens when it got 401 with the ones this client supplied
   * (`account/chatgptAuthTokens/refresh`). Default: none; the request is refused with -32601.
   */
  readonly refreshChatgptAuthTokens?: ServerRequestOption<"account/chatgptAuthTokens/refresh", NoInfer<T>>;
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
  readonly handlers?: { readonly [M in ServerRequestMethodOf<T>]?: ServerRequestHandler<M, T> };
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

/**
 * What a client keeps to itself, read by tests and benchmarks through `@codex-rpc/core/testing`
 * only: none of it is on the client's type.
 */
export interface ClientInternals {
  /** The JSON-RPC connection in use (a new one after each reconnect): its pending counts. */
  readonly connection: JsonRpcConnection;
  /** How many turns listen for their thread's notifications (for leak checks). */
  readonly threadListenerCount: number;
  /** How many subscribers `notifications()` and `unknownNotifications()` have together now (for leak checks). */
  readonly notificationSubscriberCount: number;
  /** A CodexThread for a thread the server already has, without `thread/start` (benchmarks script the server). */
  threadFor(info: ProtocolThread): CodexThread<DefaultProtocolTypes>;
}

/** Set by CodexClient's static block, which alone can read its private fields. */
let readInternals: (client: CodexClient<ProtocolTypesShape>) => ClientInternals;

/** A client's internals (see ClientInternals): for `@codex-rpc/core/testing`, not the public entries. */
export function clientInternals<T extends ProtocolTypesShape>(client: CodexClient<T>): ClientInternals {
  return readInternals(client as unknown as CodexClient<ProtocolTypesShape>);
}

/**
 * A typed client for one codex app-server connection: `connect()` runs the handshake
 * (`initialize`, then `initialized`); requests are typed by ClientRequestMap, notifications by
 * ServerNotificationMap; server requests are answered by registered handlers, else by the
 * options and defaults of SERVER_REQUEST_DEFAULTS (approval policy, elicitations, tools, user
 * input, token refresh), else -32601. Methods a newer server adds pass through untyped.
 */
export class CodexClient<T extends ProtocolTypesShape = DefaultProtocolTypes> {
  static {
    readInternals = (client) => ({
      get connection() {
        return client.#connection;
      },
      get threadListenerCount() {
        return client.#router.threadListenerCount;
      },
      get notificationSubscriberCount() {
        return client.#router.subscriberCount;
      },
      threadFor: (info) => new CodexThread(client.#sessionHost, info as never),
    });
  }

  /** What the server said about itself in reply to `initialize` (the latest, after a reconnect). */
  initializeResponse!: InitializeResponse;
  /** The codex version the server runs, read from `initializeResponse.userAgent` (undefined if it does not say). */
  serverVersion: string | undefined;
  /**
   * Notifications that arrived before `connect()` resolved, when nobody could subscribe yet; the
   * first 100, typed or not. They went to `notifications()` too, unseen. codex 0.169.0 sends
   * `configWarning` (e.g. a sandbox it cannot find) and `remoteControl/status/changed` a few
   * milliseconds after its `initialize` reply: a subscription made right after `connect()` gets
   * them, unless they came in the same read as the reply (a busy machine), and then they are here.
   */
  readonly handshakeNotifications: JsonRpcNotification[] = [];
  /** The codex version this client's protocol types and validators were generated from. */
  readonly protocolVersion: string;
  /** The client's state now and at every change (replayed to a new subscriber); read-only. */
  readonly state$: Observable<ClientState>;
  /** Resolves once the client is closed for good (after a reconnect gave up, too), with how the last connection ended. */
  readonly closed: Promise<TransportCloseInfo>;
  /** One event per successful reconnection: what was resumed and when the gap was. */
  readonly reconnections$: Observable<Reconnection>;
  /** Logging in (API key, ChatGPT browser or device code), the account, rate limits, usage, logout. */
  readonly account: CodexAccount<T>;
  /** The server's file system: read, write, list, copy, remove, and `watch(path)` for changes. */
  readonly fs: CodexFs<T>;

  readonly #state = new BehaviorSubject<ClientState>("connecting");
  #connection!: JsonRpcConnection;
  #validators: ValidatorTables | undefined;
  readonly #options: CodexClientOptions<T>;
  readonly #protocol: CodexProtocol<ProtocolTypesShape>;
  readonly #router: NotificationRouter;
  readonly #dispatcher: ServerRequestDispatcher;
  readonly #diagnostics: ReplaySubject<ConnectionDiagnostic>;
  readonly #reconnections = new Subject<Reconnection>();
  /** Threads started or resumed through this client, with their approval policy: resumed again after a reconnect. */
  readonly #openThreads = new Map<string, AskForApproval>();
  readonly #reconnector: Reconnector | undefined;
  #closeRequested = false;
  /** How the last connection ended: what requests made while reconnecting fail with. */
  #lastClose: TransportCloseInfo | undefined;
  #resolveClosed: (info: TransportCloseInfo) => void = () => {};
  /** What the threads and turns of this client use of it. */
  readonly #sessionHost: SessionHost;
  /** What `account`, `fs`, `exec` and `models` use of it. */
  readonly #apiHost: ApiHost;

  private constructor(transport: Transport, factory: TransportFactory | undefined, options: CodexClientOptions<T>, optional: OptionalParts) {
    this.#options = options;
    this.#protocol = options.protocol ?? STABLE_PROTOCOL;
    this.#diagnostics = new ReplaySubject<ConnectionDiagnostic>(options.diagnosticsReplay ?? DEFAULT_DIAGNOSTICS_REPLAY);
    this.protocolVersion = this.#protocol.version;
    this.state$ = this.#state.asObservable();
    // The router and the dispatcher read the connection in use and the validators when they need them.
    const client = this;
    const parts = {
      get connection(): JsonRpcConnection {
        return client.#connection;
      },
      get validators(): ValidatorTables | undefined {
        return client.#validators;
      },
      threadEnded: (threadId: string) => void this.#openThreads.delete(threadId),
      listenToThread: (threadId: string, listener: ThreadListener) => this.#router.listenToThread(threadId, listener),
    };
    this.#router = new NotificationRouter(parts, this.#protocol.serverNotificationMethods);
    this.#dispatcher = new ServerRequestDispatcher(parts, optional.tools, (options.approvals ?? "decline") as ApprovalPolicy, {
      elicitations: options.elicitations as UntypedServerRequestHandler | undefined,
      userInput: options.userInput as UntypedServerRequestHandler | undefined,
      refreshChatgptAuthTokens: options.refreshChatgptAuthTokens as UntypedServerRequestHandler | undefined,
    });
    this.#sessionHost = {
      request: (method, params, options) => this.#requestNow(method, params, options),
      load: (method, load, options) => this.#connection.load(method, load, options),
      forkThread: (params) => this.#forkThread(params),
      listenToThread: (threadId, listener) => this.#router.listenToThread(threadId, listener),
      report: (diagnostic) => this.#connection.report(diagnostic),
      turnTimeoutMs: options.turnTimeoutMs,
    };
    this.#reconnector =
      optional.reconnector && factory
        ? optional.reconnector({
            closeRequested: () => this.#closeRequested,
            openTransport: factory,
            connect: async (next) => {
              this.#attach(next);
              await this.#handshake();
            },
            closeConnection: () => this.#connection.close(),
            openThreads: this.#openThreads,
            request: (method, params) => this.#request(method, params),
          })
        : undefined;
    this.reconnections$ = this.#reconnections.asObservable();
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    this.#apiHost = {
      request: (method, params, requestOptions) => this.#requestNow(method, params, requestOptions),
      load: this.#sessionHost.load,
      notifications: (method) => this.#router.notifications(method),
      report: this.#sessionHost.report,
      closed: this.closed,
      state$: this.state$,
    };
    this.account = new CodexAccount<T>(this.#apiHost);
    this.fs = new CodexFs<T>(this.#apiHost);
    for (const [method, handler] of Object.entries(options.handlers ?? {})) {
      this.handle(method as ServerRequestMethodOf<T>, handler as ServerRequestHandler<ServerRequestMethodOf<T>, T>);
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
    if (options.experimentalApi === false && options.tools?.length) {
      throw new InvalidOptionError("experimentalApi", "codex declares dynamic `tools` only to experimental clients: leave `experimentalApi` unset or true");
    }
    // Loaded only with the options that need them, and checked before a transport is opened, so a bad option leaves nothing running.
    // A transport given open is connect's to close when it fails (a signal aborted meanwhile), as after a failed handshake.
    const optional = await loadOptionalParts(options).catch(async (error: unknown) => {
      if (!factory) await (transport as Transport).close().catch(() => undefined);
      throw error;
    });
    if (factory && options.signal?.aborted) throw new RequestAbortedError("initialize", undefined, options.signal.reason);
    const client = new CodexClient<T>(factory ? await factory() : (transport as Transport), factory, options, optional);
    try {
      if (options.validate) {
        client.#validators = (
          options.validate === true ? await client.#connection.load("initialize", client.#protocol.loadValidators(), options) : options.validate
        ) as ValidatorTables;
      }
      await client.#handshake(options.signal);
    } catch (error) {
      client.#closeRequested = true;
      await client.close().catch(() => undefined);
      throw error;
    }
    client.#state.next("open");
    return client;
  }

  /** The client's state now (see `state$`). */
  get state(): ClientState {
    return this.#state.value;
  }

  /** The default turn timeout (see `CodexClientOptions.turnTimeoutMs`). */
  get turnTimeoutMs(): number | undefined {
    return this.#options.turnTimeoutMs;
  }

  /** `signal` aborts the first handshake only (a reconnect's is the client's own business). */
  async #handshake(signal?: AbortSignal): Promise<void> {
    const options = this.#options;
    const experimentalApi = options.experimentalApi ?? (this.#protocol.flavor === "experimental" || (options.tools?.length ?? 0) > 0);
    const params = {
      clientInfo: options.clientInfo ?? { name: "codex-rpc", version: "0.1.0" },
      capabilities: {
        experimentalApi,
        ...(options.optOutNotificationMethods ? { optOutNotificationMethods: [...options.optOutNotificationMethods] } : {}),
      },
    };
    this.initializeResponse = (await this.#request("initialize", params, signal ? { signal } : undefined)) as InitializeResponse;
    await this.#connection.notify("initialized");
    this.serverVersion = serverVersionOf(this.initializeResponse?.userAgent, params.clientInfo.name);
    if (this.serverVersion !== this.protocolVersion) {
      const mismatch = new ProtocolVersionMismatchError(this.serverVersion, this.protocolVersion);
      if (options.strictVersion) throw mismatch;
      this.#connection.report({ kind: "version-mismatch", message: mismatch.message });
    }
  }

  #attach(transport: Transport): void {
    const connection = new JsonRpcConnection(transport, {
      ...this.#options,
      onServerRequest: (request, context) => this.#dispatcher.answer(request, context),
      onNotification: (notification) => {
        if (this.#state.value === "connecting" && this.handshakeNotifications.length < 100) this.handshakeNotifications.push(notification);
        this.#router.route(notification);
      },
    });
    this.#connection = connection;
    connection.diagnostics$.subscribe((diagnostic) => this.#diagnostics.next(boundedDiagnostic(diagnostic)));
    void connection.closed.then((info) => this.#onConnectionClosed(connection, info));
  }

  #onConnectionClosed(connection: JsonRpcConnection, info: TransportCloseInfo): void {
    if (connection !== this.#connection) return; // a failed reconnect attempt's connection
    if (this.#state.value === "reconnecting") {
      this.#reconnector?.droppedDuringAttempt(info); // the attempt under way sees it and tries again
      return;
    }
    this.#router.connectionClosed(new ConnectionClosedError(info));
    const reconnecting = this.#reconnector && !this.#closeRequested && this.#state.value === "open" && info.reason !== "closed";
    this.#lastClose = info;
    // The loop settles everything itself; this catch is the guard that no bug of it goes unhandled.
    if (reconnecting) this.#reconnectAfter(info).catch(() => this.#finish(info));
    else this.#finish(info);
  }

  async #reconnectAfter(cause: TransportCloseInfo): Promise<void> {
    const disconnectedAt = Date.now();
    this.#state.next("reconnecting");
    const outcome = await this.#reconnector!.run(cause, disconnectedAt);
    if ("gaveUp" in outcome) {
      this.#finish(outcome.gaveUp);
      return;
    }
    this.#state.next("open");
    this.#reconnections.next(outcome.reconnected);
  }

  /** Closed for good: every stream completes and `closed` resolves. */
  #finish(info: TransportCloseInfo): void {
    if (this.#state.value === "closed") return;
    this.#router.complete();
    this.#diagnostics.complete();
    this.#reconnections.complete();
    this.#state.next("closed");
    this.#state.complete();
    this.#resolveClosed(info);
  }

  /** Sends a request typed by its method; resolves with the typed result. */
  request<M extends ClientRequestMethodOf<T>>(method: M, ...[params, options]: RequestArgs<M, T>): Promise<ResultIn<T["clientRequests"], M>> {
    return this.#requestNow(method, params, options) as Promise<ResultIn<T["clientRequests"], M>>;
  }

  /** The caller's requests fail at once while reconnecting: nothing waits silently for a connection that may never come. */
  #requestNow(method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    if (this.#state.value === "reconnecting") return Promise.reject(new ConnectionClosedError(this.#lastClose ?? { reason: "eof" }, { method }));
    return this.#request(method, params, options);
  }

  async #request(method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    const result = await this.#connection.request(method, params, options).catch((error: unknown) => {
      throw this.#unsupported(error);
    });
    if (method === "thread/unsubscribe" || method === "thread/archive") this.#openThreads.delete((params as { threadId: string }).threadId);
    const validate = this.#validators?.clientRequestValidators[method]?.result;
    const errors = validate && validationErrors(validate, result);
    if (errors) throw new ValidationFailedError(method, "result", errors);
    return result;
  }

  /** A request for a method this version's types do not know (a newer server's). */
  requestUntyped(method: string, params?: unknown, options?: RequestOptions): Promise<unknown> {
    if (this.#state.value === "reconnecting") return Promise.reject(new ConnectionClosedError(this.#lastClose ?? { reason: "eof" }, { method }));
    return this.#connection.request(method, params, options).catch((error: unknown) => {
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
    return this.#router.notifications(method);
  }

  /** Notifications whose method this version's types do not know (a newer server's), untyped. */
  unknownNotifications(): Observable<JsonRpcNotification> {
    return this.#router.unknownNotifications();
  }

  /** What the transport and connection noticed: bad lines, failing handlers, failed validation (across reconnects). */
  get diagnostics$(): Observable<ConnectionDiagnostic> {
    return this.#diagnostics.asObservable();
  }

  /**
   * Answers a kind of server request. Returns a disposer (call it, or `using` it); a second
   * handler for the same method throws (dispose the first one to replace it).
   */
  handle<M extends ServerRequestMethodOf<T>>(method: M, handler: ServerRequestHandler<M, T>): Disposer {
    return disposer(this.#dispatcher.handle(method, handler as UntypedServerRequestHandler));
  }

  /** Starts a thread; registered tools are declared on it; `approvalPolicy` defaults to `defaultApprovalPolicy`. */
  async startThread(params: ThreadStartParamsOf<T> = {} as ThreadStartParamsOf<T>): Promise<CodexThread<T>> {
    const given = params as { approvalPolicy?: AskForApproval };
    const approvalPolicy = given.approvalPolicy ?? this.#options.defaultApprovalPolicy ?? "untrusted";
    const withTools = this.#dispatcher.hasTools ? { ...given, approvalPolicy, dynamicTools: this.#dispatcher.toolSpecs } : { ...given, approvalPolicy };
    const thread = threadOf("thread/start", await this.#requestNow("thread/start", withTools));
    this.#openThreads.set(thread.id, approvalPolicy);
    return new CodexThread<T>(this.#sessionHost, thread as never);
  }

  /** Resumes a stored thread by id; `approvalPolicy` defaults to `defaultApprovalPolicy`. */
  async resumeThread(
    threadId: string,
    params: Omit<ThreadResumeParamsOf<T>, "threadId"> = {} as Omit<ThreadResumeParamsOf<T>, "threadId">,
  ): Promise<CodexThread<T>> {
    const given = params as { approvalPolicy?: AskForApproval };
    const approvalPolicy = given.approvalPolicy ?? this.#options.defaultApprovalPolicy ?? "untrusted";
    const thread = threadOf("thread/resume", await this.#requestNow("thread/resume", { ...given, approvalPolicy, threadId }));
    this.#openThreads.set(thread.id, approvalPolicy);
    return new CodexThread<T>(this.#sessionHost, thread as never);
  }

  /**
   * A new thread with thread `threadId`'s history (`thread/fork`); `approvalPolicy` defaults to
   * `defaultApprovalPolicy`, `excludeTurns` to true (page them with `thread.turns()`).
   */
  async forkThread(threadId: string, params: Omit<ThreadForkParamsOf<T>, "threadId"> = {} as Omit<ThreadForkParamsOf<T>, "threadId">): Promise<CodexThread<T>> {
    return new CodexThread<T>(this.#sessionHost, (await this.#forkThread({ ...params, threadId })) as never);
  }

  async #forkThread(params: unknown): Promise<ProtocolThread> {
    const given = params as { approvalPolicy?: AskForApproval; excludeTurns?: boolean };
    const approvalPolicy = given.approvalPolicy ?? this.#options.defaultApprovalPolicy ?? "untrusted";
    const thread = threadOf("thread/fork", await this.#requestNow("thread/fork", { excludeTurns: true, ...given, approvalPolicy }));
    this.#openThreads.set(thread.id, approvalPolicy);
    return thread;
  }

  /**
   * The stored threads, a page at a time as the loop asks (`thread/list`; `limit` is the page
   * size), each thread once: codex 0.169.0 can list a reverted thread twice (once per rollout file).
   */
  threads(params: ThreadListParamsOf<T> = {} as ThreadListParamsOf<T>, options?: ListOptions): AsyncIterable<PageEntryIn<T["clientRequests"], "thread/list">> {
    return paginate("thread/list", params as object, this.#apiHost, {
      ...options,
      distinctBy: (thread) => (thread as { id?: unknown } | null)?.id,
    });
  }

  /** Runs a command on the server (`command/exec`, output streamed): write to it, resize, terminate, await `exit`. */
  exec(command: readonly string[], options?: ExecOptions<T>): CodexCommand<T> {
    return startCommand<T>(this.#apiHost, command, options);
  }

  /** Every model codex offers (`model/list`), following `nextCursor` page by page (`options.signal` aborts). */
  models(params?: ModelListOptions<T>, options?: ListOptions): AsyncIterable<ModelOf<T>> {
    return listModels<T>(this.#apiHost, params, options);
  }

  /** Closes the connection (and, for process transports, the server); stops reconnecting. */
  async close(): Promise<TransportCloseInfo> {
    this.#closeRequested = true;
    this.#reconnector?.wake();
    const info = await this.#connection.close();
    this.#finish(info);
    return this.closed;
  }

  /** `await using client = …` closes the client (and its server) when the block ends. */
  async [asyncDisposeSymbol](): Promise<void> {
    await this.close();
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
