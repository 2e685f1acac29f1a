import type { Transport } from "@codex-rpc/core/transport";
import type { JsonRpcId, JsonRpcMessage } from "@codex-rpc/core/transport";
import { ConnectionNotices } from "./connection-notices.js";
import { declineAnswer } from "./decline-answer.js";
import { filterListResult, LIST_METHODS } from "./list-filter.js";
import type { RelayLogger } from "./relay-log.js";
import { type ScopedId, scopeOf, scopePageIds, unscopeErrorData, unscopeMessage, unscopePageIds } from "./page-ids.js";
import { ResourceOwners, resourcesOf } from "./resource-owners.js";
import { RunningTurns } from "./running-turns.js";
import { completeRateLimit, type RateLimit, TokenBucket } from "./token-bucket.js";
import { wholeAbove0 } from "./limits.js";
import { THREAD_OPENING_METHODS, threadOf, threadOfResult, UNOWNED_THREAD_METHODS } from "./thread-of.js";
import { canonicalThreadId } from "./thread-id.js";
import { checkThreadParams } from "./thread-params.js";
import { threadsNamed, UNOWNED_NAMED_THREAD_METHODS } from "./named-threads.js";
import { requestIdUpstream, type SentRequest } from "./request-id-params.js";
import { subAgentThreadsOf } from "./sub-agent-threads.js";
import { MultiplexerGroup } from "./multiplexer-group.js";

/** The browser side of one connection, as the multiplexer sees it. */
export interface RelayPeer {
  send(message: JsonRpcMessage): void;
  /** Ends the connection (WebSocket close code and reason). */
  close(code: number, reason: string): void;
}

export interface RelayMultiplexerOptions {
  /** `clientInfo` of the relay's own `initialize` upstream. */
  readonly clientInfo?: { readonly name: string; readonly title?: string | null; readonly version: string };
  /** Ask the app-server for its experimental API (default true: connections may use it or not). */
  readonly experimentalApi?: boolean;
  /**
   * Per-connection rate limit (default 100 messages/s, bursts of 200; a field left out takes its
   * default). `perSecond` a number above 0, `burst` a whole number above 0: `start` rejects others.
   */
  readonly rateLimit?: Partial<RateLimit>;
  /** How long the app-server may take to answer `initialize` (default 30 000 ms; a whole number of ms, up to 2 147 483 647). */
  readonly initializeTimeoutMs?: number;
  readonly log?: RelayLogger;
  /**
   * Let pages pass `path` (a rollout file) or `history` to `thread/resume` / `thread/fork`
   * (default false: refused, as a path can name another page's thread).
   */
  readonly allowRolloutPaths?: boolean;
  /** Shared by the multiplexers of one relay with isolation "process" (see MultiplexerGroup). Default: a group of its own. */
  readonly group?: MultiplexerGroup;
}

/** JSON-RPC error codes the relay answers with (codex's own for the first two). */
export const RelayErrorCode = {
  /** Invalid request: not initialized, already initialized, a message that is not JSON-RPC. */
  invalidRequest: -32600,
  parseError: -32700,
  /** The relay could not pass the message on (not sendable upstream, or an answer it cannot serialize). */
  internalError: -32603,
  /** The request names a thread this connection does not own. */
  threadNotOwned: -32003,
} as const;

/** Close codes the relay ends a browser connection with. */
export const RelayCloseCode = {
  /** Sent faster than the rate limit (policy violation). */
  rateLimited: 1008,
  /** A message larger than the limit (message too big; `ws` sends it itself). */
  tooBig: 1009,
  /** The app-server went away. */
  upstreamClosed: 1011,
  /** The relay is shutting down. */
  goingAway: 1001,
  /** The relay has `maxConnections` open already (try again later). */
  tooManyConnections: 1013,
} as const;

/** The longest `setTimeout` takes (a longer one fires at once). */
const MAX_TIMEOUT_MS = 2_147_483_647;
/** Notifications kept for threads whose opening request has not been answered yet. */
const MAX_BACKLOG = 1000;

interface PendingRequest {
  readonly connection: RelayConnection;
  readonly id: JsonRpcId;
  readonly method: string;
  /** The thread the request named, for `thread/unsubscribe`. */
  readonly threadId: string | undefined;
  /** The page-chosen ids the request named, as sent upstream (see page-ids.ts). */
  readonly ids: readonly ScopedId[];
}

/**
 * One upstream app-server shared by many browser connections, each seeing only its own threads:
 * request ids are rewritten (the relay's own, unique upstream) and restored on the answer; a
 * thread belongs to the connection whose `thread/start`, `thread/resume` or `thread/fork` returned
 * it; notifications and server requests go to the owner of their `threadId` (those naming no
 * thread go to every connection); requests naming another connection's thread are refused.
 * `initialize` is answered per connection from the relay's own upstream handshake.
 */
export class RelayMultiplexer {
  /** Messages sent to the app-server, the relay's own handshake included. */
  sentUpstream = 0;
  readonly #upstream: Transport;
  readonly #options: RelayMultiplexerOptions;
  readonly #log: RelayLogger;
  readonly #rateLimit: RateLimit;
  readonly #initializeTimeoutMs: number;
  readonly #pending = new Map<number, PendingRequest>();
  /** Server requests forwarded to a connection, by the app-server's id. */
  readonly #serverRequests = new Map<JsonRpcId, { readonly connection: RelayConnection; readonly method: string; readonly params: unknown }>();
  readonly #group: MultiplexerGroup;
  readonly #owners: Map<string, RelayConnection>;
  /** Imports and logins each connection started (see resource-owners.ts; the ids pages choose are scoped instead, page-ids.ts). */
  readonly #resources = new ResourceOwners<RelayConnection>();
  /** The connections attached, by number. */
  readonly #connections = new Map<number, RelayConnection>();
  readonly #turns = new RunningTurns();
  /** Connection-level notifications since the upstream `initialize`, replayed to each page after its own. */
  readonly #notices = new ConnectionNotices();
  /** The relay's own requests (a leaving connection's cleanup), by upstream id: what to do with the answer. */
  readonly #own = new Map<number, (answer: JsonRpcMessage) => void>();
  /** Threads whose owner left, recently: a turn that starts on one anyway is interrupted. */
  readonly #released = new Set<string>();
  /** Notifications of threads not owned yet, while a thread-opening request is in flight. */
  readonly #backlog = new Map<string, JsonRpcMessage[]>();
  #backlogSize = 0;
  #openingInFlight = 0;
  /** `thread/resume` requests in flight, by the thread they name: such a thread is not unsubscribed under them. */
  readonly #resuming = new Map<string, number>();
  /** Threads whose release waits for the resumes of them in flight: released if none of them takes it (by the connection that left). */
  readonly #releaseAfterResume = new Map<string, number>();
  #nextId = 1;
  #initializeResult: unknown;
  #closed = false;
  #resolveEnded!: () => void;
  /** Resolves when the app-server has gone (it exited, or `close()` ended it). */
  readonly ended: Promise<void> = new Promise((resolve) => (this.#resolveEnded = resolve));

  private constructor(upstream: Transport, options: RelayMultiplexerOptions) {
    this.#upstream = upstream;
    this.#options = options;
    // Checked before anything is sent: NaN or 0 would turn the rate limit off (a NaN bucket admits everything).
    this.#rateLimit = completeRateLimit("RelayMultiplexer", options.rateLimit);
    this.#initializeTimeoutMs = wholeAbove0("RelayMultiplexer", "initializeTimeoutMs", options.initializeTimeoutMs ?? 30_000, MAX_TIMEOUT_MS);
    this.#log = options.log ?? (() => {});
    this.#group = options.group ?? new MultiplexerGroup();
    this.#owners = this.#group.threadOwners;
  }

  /** Initializes the app-server behind `upstream` and starts relaying. */
  static async start(upstream: Transport, options: RelayMultiplexerOptions = {}): Promise<RelayMultiplexer> {
    const mux = new RelayMultiplexer(upstream, options);
    await mux.#initialize();
    return mux;
  }

  /** The connection-level notifications a page gets after its `initialize` (see ConnectionNotices). */
  get notices(): readonly JsonRpcMessage[] {
    return this.#notices.all;
  }

  /** What the app-server answered the relay's `initialize` (every connection gets it). */
  get initializeResult(): unknown {
    return this.#initializeResult;
  }

  /** A new browser connection. */
  attach(peer: RelayPeer): RelayConnection {
    const connection = new RelayConnection(this, peer, this.#group.nextConnectionNumber(), this.#rateLimit);
    if (this.#closed) {
      peer.close(RelayCloseCode.upstreamClosed, "the app-server is gone");
      return connection;
    }
    this.#connections.set(connection.id, connection);
    return connection;
  }

  /** How many threads `connection` owns. */
  threadsOf(connection: RelayConnection): string[] {
    return [...this.#owners].filter(([, owner]) => owner === connection).map(([thread]) => thread);
  }

  /** Closes every connection (code 1001) and the upstream transport. */
  async close(): Promise<void> {
    this.#end(RelayCloseCode.goingAway, "the relay is shutting down");
    await this.#upstream.close();
  }

  async #initialize(): Promise<void> {
    const id = this.#nextId++;
    const timeoutMs = this.#initializeTimeoutMs;
    const answer = new Promise<JsonRpcMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the app-server did not answer initialize within ${timeoutMs} ms`)), timeoutMs);
      const subscription = this.#upstream.messages$.subscribe({
        next: (message) => {
          if (this.#initializeResult === undefined && "id" in message && message.id === id && !("method" in message)) {
            clearTimeout(timer);
            resolve(message);
            return;
          }
          this.#receiveUpstream(message);
        },
        complete: () => {
          clearTimeout(timer);
          reject(new Error("the app-server closed before it answered initialize"));
          this.#end(RelayCloseCode.upstreamClosed, "the app-server is gone");
          this.#resolveEnded();
        },
      });
      void this.#upstream.closed.then(() => subscription.unsubscribe());
    });
    const clientInfo = this.#options.clientInfo ?? { name: "codex_rpc_relay", title: "codex-rpc relay", version: "0.1.0" };
    this.#sendUpstream({
      id,
      method: "initialize",
      params: { clientInfo, capabilities: { experimentalApi: this.#options.experimentalApi ?? true } },
    });
    const reply = await answer;
    if ("error" in reply) throw new Error(`the app-server refused initialize: ${reply.error.message}`);
    this.#initializeResult = (reply as { result: unknown }).result;
    this.#sendUpstream({ method: "initialized" });
    this.#log(`upstream initialized: ${describeUserAgent(this.#initializeResult)}`);
  }

  /** Sends `message` to the app-server; `failed` is called if the transport could not (e.g. it cannot serialize it). */
  #sendUpstream(message: JsonRpcMessage, failed?: (error: unknown) => void): void {
    this.sentUpstream++;
    let sending: Promise<void>;
    try {
      sending = this.#upstream.send(message);
    } catch (error) {
      sending = Promise.reject(error);
    }
    sending.catch((error: unknown) => {
      this.sentUpstream--;
      failed?.(error);
    });
  }

  /** A page's request the transport could not send: no longer pending, and the page answered -32603 at once. */
  #unsent(upstreamId: number, error: unknown): void {
    const pending = this.#pending.get(upstreamId);
    if (!pending) return;
    this.#pending.delete(upstreamId);
    this.#settle(pending);
    this.#releaseIfAbandoned(pending);
    if (this.#openingInFlight === 0) this.#clearBacklog();
    this.#log(`connection #${pending.connection.id}: could not send ${pending.method.slice(0, 100)} to the app-server (${errorName(error)})`);
    pending.connection.deliver({
      id: pending.id,
      error: { code: RelayErrorCode.internalError, message: "the relay could not send this request to the app-server" },
    } as JsonRpcMessage);
  }

  /** A pending request is done with (answered, or never sent). */
  #settle(pending: PendingRequest): void {
    if (THREAD_OPENING_METHODS.has(pending.method)) this.#openingInFlight--;
    if (pending.method !== "thread/resume" || pending.threadId === undefined) return;
    const left = (this.#resuming.get(pending.threadId) ?? 1) - 1;
    if (left > 0) this.#resuming.set(pending.threadId, left);
    else this.#resuming.delete(pending.threadId);
  }

  /**
   * After a `thread/resume` is done with: a thread whose unsubscribe waited for it, that no resume
   * took (it failed, or its page left too), is unsubscribed as it would have been.
   */
  #releaseIfAbandoned(pending: PendingRequest): void {
    const threadId = pending.threadId;
    if (pending.method !== "thread/resume" || threadId === undefined || this.#resuming.has(threadId)) return;
    const leftBy = this.#releaseAfterResume.get(threadId);
    if (leftBy === undefined) return;
    this.#releaseAfterResume.delete(threadId);
    this.#unsubscribe(threadId, leftBy);
  }

  /** A message from the app-server: nothing in it may throw out of the subscription (the relay's process would die). */
  #receiveUpstream(message: JsonRpcMessage): void {
    try {
      this.#fromUpstream(message);
    } catch (error) {
      this.#log(`dropped a message from the app-server: relaying it failed (${errorName(error)})`);
    }
  }

  #fromUpstream(message: JsonRpcMessage): void {
    if (!("method" in message)) return this.#answerFromUpstream(message);
    if (typeof (message as { method: unknown }).method !== "string") return this.#dropMalformed(message);
    this.#turns.observe(message);
    const threadId = threadOf(message.params);
    const owned = threadId === undefined ? undefined : this.#owners.get(threadId);
    // A thread owned by another multiplexer's page (a shared group) is not this session's to deliver.
    const owner = owned !== undefined && this.#connections.get(owned.id) === owned ? owned : undefined;
    if (owner) this.#adoptSubAgents(owner, message.params);
    if (message.method === "turn/started" && threadId !== undefined && !owner && this.#released.has(threadId)) void this.#interrupt(threadId, "its owner left");
    if ("id" in message) {
      if (owner) {
        this.#serverRequests.set(message.id, { connection: owner, method: message.method, params: message.params });
        if (!owner.deliver(message)) {
          this.#serverRequests.delete(message.id);
          this.#decline(message.id, message.method, message.params, "it could not be relayed");
        }
      } else {
        this.#decline(message.id, message.method, message.params, `no connection owns thread ${threadId ?? "(none)"}`);
      }
      return;
    }
    if (threadId === undefined) {
      const scope = scopeOf(message.method, message.params);
      if (typeof scope === "number") {
        const connection = this.#connections.get(scope);
        if (connection) connection.deliver({ ...message, params: unscopePageIds(message.method, message.params, scope) } as JsonRpcMessage);
        else this.#log(`dropped ${message.method.slice(0, 100)}: its connection #${scope} has left`);
        return;
      }
      if (scope === "unscoped") return this.#log(`dropped ${message.method.slice(0, 100)}: it names an id no page chose`);
      const target = this.#resources.ownerOf(resourcesOf(message.params));
      if (target === "nobody") this.#log(`dropped ${message.method.slice(0, 100)}: no connection owns what it names`);
      else if (target !== "none") target.deliver(message);
      else {
        this.#notices.keep(message);
        for (const connection of this.#connections.values()) connection.deliver(message);
      }
    } else if (owner) {
      owner.deliver(message);
    } else if (this.#openingInFlight > 0 && this.#backlogSize < MAX_BACKLOG) {
      const kept = this.#backlog.get(threadId) ?? [];
      kept.push(message);
      this.#backlog.set(threadId, kept);
      this.#backlogSize++;
    }
  }

  /** Sub-agent threads the owner's thread names (see subAgentThreadsOf) become its too, unless another connection has them. */
  #adoptSubAgents(owner: RelayConnection, params: unknown): void {
    for (const child of subAgentThreadsOf(params)) {
      if (this.#owners.has(child) || !owner.attached) continue;
      this.#owners.set(child, owner);
      const kept = this.#backlog.get(child) ?? [];
      this.#backlog.delete(child);
      this.#backlogSize -= kept.length;
      for (const message of kept) owner.deliver(message);
    }
  }

  /** A message whose `method` is not a string: dropped; a request among them answered -32600 (as codex answers one). */
  #dropMalformed(message: JsonRpcMessage): void {
    const id = (message as { id?: unknown }).id;
    const request = typeof id === "number" || typeof id === "string";
    this.#log(`dropped a ${request ? "request" : "notification"} from the app-server: its method is not a string`);
    if (request)
      this.#sendUpstream({ id, error: { code: RelayErrorCode.invalidRequest, message: "Invalid request: method must be a string" } } as JsonRpcMessage);
  }

  #answerFromUpstream(message: JsonRpcMessage & { id: JsonRpcId | null }): void {
    const own = typeof message.id === "number" ? this.#own.get(message.id) : undefined;
    if (own) {
      this.#own.delete(message.id as number);
      return own(message);
    }
    const pending = typeof message.id === "number" ? this.#pending.get(message.id) : undefined;
    if (!pending) return;
    this.#pending.delete(message.id as number);
    this.#settle(pending);
    this.#answer(pending, message);
    this.#releaseIfAbandoned(pending);
  }

  /** A page's request answered by the app-server: ownership updated, the answer passed on. */
  #answer(pending: PendingRequest, message: JsonRpcMessage & { id: JsonRpcId | null }): void {
    const opening = THREAD_OPENING_METHODS.has(pending.method);
    const { connection } = pending;
    const answered = "result" in message ? threadOfResult(pending.method, message.result) : undefined;
    const answeredOwner = answered === undefined ? undefined : this.#owners.get(canonicalThreadId(answered));
    if (answeredOwner !== undefined && answeredOwner !== connection) {
      // An answer about another connection's thread, however the request named it: refused, ownership unchanged.
      this.#log(`connection #${connection.id}: refused the answer to ${pending.method.slice(0, 100)}: another connection's thread`);
      if (this.#openingInFlight === 0) this.#clearBacklog();
      if (!connection.attached) return;
      return void connection.deliver({
        id: pending.id,
        error: { code: RelayErrorCode.threadNotOwned, message: "that thread is another connection's" },
      } as JsonRpcMessage);
    }
    const threadId = opening && answered !== undefined ? canonicalThreadId(answered) : undefined;
    if (pending.method === "thread/unsubscribe" && "result" in message && pending.threadId !== undefined && this.#owners.get(pending.threadId) === connection) {
      this.#owners.delete(pending.threadId);
    }
    if (threadId !== undefined && connection.attached) {
      this.#owners.set(threadId, connection);
      for (const kept of this.#backlog.get(threadId) ?? []) connection.deliver(kept);
    } else if (threadId !== undefined && !this.#owners.has(threadId) && !this.#closed) {
      // Opened for a connection that has left meanwhile: given up as its other threads were (this
      // release replaces one that waited for the resume).
      this.#releaseAfterResume.delete(threadId);
      this.#release(threadId, connection.id);
    }
    if (this.#openingInFlight === 0) this.#clearBacklog();
    if (!connection.attached) return;
    if ("error" in message) {
      const { error } = message;
      const text = typeof error?.message === "string" ? unscopeMessage(error.message, pending.ids) : error?.message;
      const unscoped = { ...error, message: text };
      if (error !== null && typeof error === "object" && "data" in error) unscoped.data = unscopeErrorData(error.data, pending.ids);
      return void connection.deliver({ ...message, id: pending.id, error: unscoped } as JsonRpcMessage);
    }
    if (!("result" in message)) return void connection.deliver({ ...message, id: pending.id } as JsonRpcMessage);
    this.#resources.claim(resourcesOf(message.result), connection);
    const result = LIST_METHODS.has(pending.method)
      ? filterListResult(pending.method, message.result, (thread) => this.ownership(connection, thread))
      : unscopePageIds(pending.method, message.result, connection.id);
    connection.deliver({ ...message, id: pending.id, result } as JsonRpcMessage);
  }

  #clearBacklog(): void {
    this.#backlog.clear();
    this.#backlogSize = 0;
  }

  /** Whether pages may pass `path` / `history` to `thread/resume` / `thread/fork`. */
  get allowRolloutPaths(): boolean {
    return this.#options.allowRolloutPaths ?? false;
  }

  /** Called by a connection: a request to forward, after its checks. */
  forwardRequest(connection: RelayConnection, id: JsonRpcId, method: string, params: unknown, threadId: string | undefined): void {
    const upstreamId = this.#nextId++;
    const scoped = scopePageIds(method, requestIdUpstream(method, params, connection.id, this.#sentBy(connection)), connection.id);
    this.#pending.set(upstreamId, { connection, id, method, threadId, ids: scoped.ids });
    this.#resources.claim(resourcesOf(params), connection);
    if (THREAD_OPENING_METHODS.has(method)) this.#openingInFlight++;
    if (method === "thread/resume" && threadId !== undefined) this.#resuming.set(threadId, (this.#resuming.get(threadId) ?? 0) + 1);
    this.#sendUpstream(params === undefined ? { id: upstreamId, method } : { id: upstreamId, method, params: scoped.params }, (error) =>
      this.#unsent(upstreamId, error),
    );
  }

  /** The requests `connection` has pending upstream (for a `requestId` naming one of them). */
  *#sentBy(connection: RelayConnection): Iterable<SentRequest> {
    for (const [upstreamId, pending] of this.#pending) {
      if (pending.connection === connection) yield { pageId: pending.id, method: pending.method, upstreamId };
    }
  }

  /** Called by a connection: its answer to a server request. False when it was not asked that. */
  forwardAnswer(connection: RelayConnection, message: JsonRpcMessage & { id: JsonRpcId }): boolean {
    const request = this.#serverRequests.get(message.id);
    if (request?.connection !== connection) return false;
    this.#serverRequests.delete(message.id);
    const answer = "error" in message ? { error: message.error } : { result: (message as { result?: unknown }).result ?? null };
    // An answer the transport cannot send (nested too deep…): declined instead, so codex does not wait for it.
    this.#sendUpstream({ id: message.id, ...answer } as JsonRpcMessage, () =>
      this.#decline(message.id, request.method, request.params, `connection #${connection.id}'s answer could not be sent`),
    );
    return true;
  }

  /** The first process, watch, session… named in `params` that another connection owns, if any. */
  resourceOfOther(connection: RelayConnection, params: unknown): string | undefined {
    return this.#resources.takenByOther(resourcesOf(params), connection);
  }

  /** Who owns `threadId`: this connection, another, or nobody. */
  ownership(connection: RelayConnection, threadId: string): "mine" | "other" | "none" {
    const owner = this.#owners.get(threadId);
    return owner === undefined ? "none" : owner === connection ? "mine" : "other";
  }

  /**
   * Called by a connection that ended: its open server requests are declined, and its threads
   * given up upstream — a running turn interrupted (`turn/interrupt`), then `thread/unsubscribe` —
   * so that nothing keeps running for a page that has gone.
   */
  detach(connection: RelayConnection): void {
    if (this.#connections.get(connection.id) !== connection || !this.#connections.delete(connection.id)) return;
    this.#resources.release(connection);
    for (const [thread, owner] of this.#owners) {
      if (owner !== connection) continue;
      this.#owners.delete(thread);
      if (this.#closed) continue; // the app-server is going too
      this.#release(thread, connection.id);
    }
    for (const [id, request] of this.#serverRequests) {
      if (request.connection !== connection) continue;
      this.#serverRequests.delete(id);
      this.#decline(id, request.method, request.params, `its connection #${connection.id} closed`);
    }
  }

  /**
   * A leaving connection's thread: its running turn interrupted, then — once codex has answered
   * that, so the turn's end is still seen — unsubscribed.
   */
  #release(threadId: string, connectionId: number): void {
    this.#released.add(threadId);
    if (this.#released.size > MAX_BACKLOG) this.#released.delete(this.#released.values().next().value!);
    const unsubscribe = () => this.#unsubscribe(threadId, connectionId);
    if (!this.#interrupt(threadId, `connection #${connectionId} left`, unsubscribe)) unsubscribe();
  }

  /** The last step of a release: `thread/unsubscribe`, unless a page has the thread now or is resuming it. */
  #unsubscribe(threadId: string, connectionId: number): void {
    // A page may have resumed it meanwhile: then it is that page's, and stays subscribed.
    if (this.#owners.has(threadId) || this.#closed) return;
    // A page's resume of it is in flight: codex would handle the unsubscribe after it, under the page.
    if (this.#resuming.has(threadId)) return void this.#releaseAfterResume.set(threadId, connectionId);
    this.#request("thread/unsubscribe", { threadId }, (answer) => {
      this.#turns.forget(threadId);
      this.#log(`unsubscribed thread ${threadId.slice(0, 100)} (connection #${connectionId} left): ${describeAnswer(answer)}`);
    });
  }

  /** Interrupts the turn running on `threadId`, if any (then `then`); false when none runs. */
  #interrupt(threadId: string, why: string, then?: () => void): boolean {
    const turnId = this.#turns.of(threadId);
    if (turnId === undefined) return false;
    this.#request("turn/interrupt", { threadId, turnId }, (answer) => {
      this.#log(`interrupted turn ${turnId.slice(0, 100)} (${why}): ${describeAnswer(answer)}`);
      then?.();
    });
    return true;
  }

  /** A request of the relay's own; `then` gets the answer. */
  #request(method: string, params: unknown, then: (answer: JsonRpcMessage) => void): void {
    const id = this.#nextId++;
    this.#own.set(id, then);
    this.#sendUpstream({ id, method, params } as JsonRpcMessage);
  }

  /** Answers a server request as core's client does when nothing handles it (see declineAnswer). */
  #decline(id: JsonRpcId, method: string, params: unknown, why: string): void {
    this.#log(`declined ${method.slice(0, 100)}: ${why}`);
    void declineAnswer(method, params).then((answer) => this.#sendUpstream({ id, ...answer } as JsonRpcMessage));
  }

  log(line: string): void {
    this.#log(line);
  }

  #end(code: number, reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const connection of [...this.#connections.values()]) connection.close(code, reason);
  }
}

/** One browser connection: its handshake state, rate limit and the checks on what it sends. */
export class RelayConnection {
  #initialized = false;
  #attached = true;
  #optOut: ReadonlySet<string> = new Set();
  readonly #bucket: TokenBucket;

  constructor(
    private readonly mux: RelayMultiplexer,
    private readonly peer: RelayPeer,
    /** A number for logs. */
    readonly id: number,
    rateLimit: RateLimit,
  ) {
    this.#bucket = new TokenBucket(rateLimit);
  }

  get attached(): boolean {
    return this.#attached;
  }

  /** A message the browser sent, parsed from one text frame. */
  receive(message: unknown): void {
    if (!this.#attached) return;
    if (this.#overRateLimit()) return;
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      return this.#error(null, RelayErrorCode.invalidRequest, "expected one JSON-RPC message object per frame");
    }
    const record = message as { id?: unknown; method?: unknown; params?: unknown };
    const id = typeof record.id === "number" || typeof record.id === "string" ? record.id : undefined;
    if (typeof record.method !== "string") {
      if (id !== undefined && this.mux.forwardAnswer(this, message as JsonRpcMessage & { id: JsonRpcId })) return;
      this.mux.log(`connection #${this.id}: dropped an answer to no request of its own`);
      return;
    }
    const method = record.method;
    if (id === undefined) {
      if (method === "initialized") return;
      this.mux.log(`connection #${this.id}: dropped notification ${method.slice(0, 100)}`);
      return;
    }
    if (method === "initialize") return this.#initialize(id, record.params);
    if (!this.#initialized) return this.#error(id, RelayErrorCode.invalidRequest, "Not initialized");
    const checked = checkThreadParams(method, record.params, this.mux.allowRolloutPaths);
    if ("refusal" in checked) {
      this.mux.log(`connection #${this.id}: refused ${method.slice(0, 100)}: ${checked.refusal}`);
      return this.#error(id, RelayErrorCode.threadNotOwned, checked.refusal);
    }
    const { threadId } = checked;
    if (threadId !== undefined) {
      const ownership = this.mux.ownership(this, threadId);
      if (ownership === "other" || (ownership === "none" && !UNOWNED_THREAD_METHODS.has(method))) {
        this.mux.log(`connection #${this.id}: refused ${method.slice(0, 100)} on a thread it does not own`);
        return this.#error(id, RelayErrorCode.threadNotOwned, `thread ${threadId.slice(0, 100)} is not this connection's: start or resume it first`);
      }
    }
    const notOwned = threadsNamed(checked.params).find((named) => {
      const ownership = this.mux.ownership(this, named);
      return ownership === "other" || (ownership === "none" && !UNOWNED_NAMED_THREAD_METHODS.has(method));
    });
    if (notOwned !== undefined) {
      this.mux.log(`connection #${this.id}: refused ${method.slice(0, 100)} naming a thread it does not own`);
      return this.#error(id, RelayErrorCode.threadNotOwned, `thread ${notOwned.slice(0, 100)} is not this connection's: start or resume it first`);
    }
    const taken = this.mux.resourceOfOther(this, checked.params);
    if (taken !== undefined) {
      this.mux.log(`connection #${this.id}: refused ${method.slice(0, 100)} naming another connection's ${taken.split(":")[0]}`);
      return this.#error(id, RelayErrorCode.threadNotOwned, `${taken.slice(0, 120)} is another connection's`);
    }
    this.mux.forwardRequest(this, id, method, checked.params, threadId);
  }

  /** A text frame that is not JSON: answered with a parse error, after the rate limit. */
  receiveUnparsable(): void {
    if (!this.#attached) return;
    if (this.#overRateLimit()) return;
    this.#error(null, RelayErrorCode.parseError, "Parse error: one JSON message per text frame");
  }

  /**
   * A message from the app-server for this connection. False when it could not be serialized (a
   * value nested too deep for `JSON.stringify`): dropped with a log line naming its method, never its
   * content; an answer among them reaches the page as a -32603 error instead.
   */
  deliver(message: JsonRpcMessage): boolean {
    if (!this.#attached) return true;
    if (!("id" in message) && "method" in message && this.#optOut.has(message.method)) return true;
    if (!this.#initialized && "method" in message) return true;
    try {
      this.peer.send(message);
      return true;
    } catch (error) {
      const what = "method" in message ? message.method.slice(0, 100) : "an answer";
      this.mux.log(`connection #${this.id}: dropped ${what} from the app-server: it could not be serialized (${errorName(error)})`);
      if (!("method" in message) && "id" in message) this.#error(message.id, RelayErrorCode.internalError, "the app-server's answer could not be relayed");
      return false;
    }
  }

  /** Ends the connection (the browser side closes with `code`); its threads are released. */
  close(code: number, reason: string): void {
    if (!this.#attached) return;
    this.detach();
    this.peer.close(code, reason);
  }

  /** The browser side went away. */
  detach(): void {
    if (!this.#attached) return;
    this.#attached = false;
    this.mux.detach(this);
  }

  #initialize(id: JsonRpcId, params: unknown): void {
    if (this.#initialized) return this.#error(id, RelayErrorCode.invalidRequest, "Already initialized");
    this.#initialized = true;
    const optOut = (params as { capabilities?: { optOutNotificationMethods?: unknown } } | undefined)?.capabilities?.optOutNotificationMethods;
    if (Array.isArray(optOut)) this.#optOut = new Set(optOut.filter((entry): entry is string => typeof entry === "string"));
    this.peer.send({ id, result: this.mux.initializeResult } as JsonRpcMessage);
    for (const notice of this.mux.notices) this.deliver(notice);
  }

  /** Takes a message from the rate limit; over it, the connection is closed (1008) and true returned. */
  #overRateLimit(): boolean {
    if (this.#bucket.take()) return false;
    this.mux.log(`connection #${this.id}: rate limit exceeded; closed`);
    this.close(RelayCloseCode.rateLimited, "rate limit exceeded");
    return true;
  }

  #error(id: JsonRpcId | null, code: number, message: string): void {
    this.peer.send({ id, error: { code, message } } as JsonRpcMessage);
  }
}

/** An answer for a log line: its result or error, short. */
function describeAnswer(answer: JsonRpcMessage): string {
  return JSON.stringify("error" in answer ? { error: answer.error } : { result: (answer as { result?: unknown }).result }).slice(0, 300);
}

/** An error's class name for a log line (never its message, which may quote what failed). */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

function describeUserAgent(result: unknown): string {
  const agent = typeof result === "object" && result !== null ? (result as { userAgent?: unknown }).userAgent : undefined;
  return typeof agent === "string" ? agent.slice(0, 200) : "(no userAgent)";
}
