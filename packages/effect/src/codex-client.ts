// The CodexClient service and the Layer that builds it from any transport. The Layer is scoped:
// closing its scope closes the client, which closes the transport (a spawned server's process ends).
import {
  CodexClient as CoreClient,
  ConnectionClosedError,
  type ClientRequestMethodOf,
  type CodexClientOptions,
  type DefaultProtocolTypes,
  type ParamsIn,
  type ProtocolTypesShape,
  type ResultIn,
  type ServerNotificationMethodOf,
  type Transport,
  type TransportCloseInfo,
  type TransportFactory,
} from "@codex-rpc/core";
import { Context, Duration, Effect, Layer, type Schedule, type Scope, type Stream } from "effect";
import { acquireAbortable } from "./acquire-transport.js";
import { type CodexError, fromPromise } from "./errors.js";
import { endingAs, streamFrom } from "./observable-stream.js";
import { type ServerRequestEffects, type ServicesOf, serverRequestOptions } from "./server-requests.js";
import type { EffectTool } from "./tools.js";
import { type EffectThread, effectThread } from "./thread.js";

/** How one request is made: a timeout (core's RequestTimeout) and a retry Schedule over its tagged errors. */
export interface RequestPolicy {
  /** The reply's deadline (core's `timeoutMs`): past it, the request fails with `RequestTimeout`. */
  readonly timeout?: Duration.Input;
  /** Retries on failure (e.g. `Schedule.exponential("100 millis").pipe(Schedule.take(3))`); core already retries -32001 a few times. */
  readonly retry?: Schedule.Schedule<unknown, CodexError>;
}

type ThreadStartParams<T extends ProtocolTypesShape> = Parameters<CoreClient<T>["startThread"]>[0];
type ThreadResumeParams<T extends ProtocolTypesShape> = Parameters<CoreClient<T>["resumeThread"]>[1];

/** What the `CodexClient` service gives: core's client, with Effects and Streams. */
export interface CodexService<T extends ProtocolTypesShape = DefaultProtocolTypes> {
  /** Core's client, for what this binding does not wrap. */
  readonly client: CoreClient<T>;
  /** Any client request, typed by the protocol; interrupting the fiber aborts it. */
  request<M extends ClientRequestMethodOf<T>>(
    method: M,
    params: ParamsIn<T["clientRequests"], M>,
    policy?: RequestPolicy,
  ): Effect.Effect<ResultIn<T["clientRequests"], M>, CodexError>;
  /** Every notification of `method` from the moment the Stream runs; it ends when the client closes. */
  notifications<M extends ServerNotificationMethodOf<T>>(method: M): Stream.Stream<ParamsIn<T["serverNotifications"], M>, CodexError>;
  startThread(params?: ThreadStartParams<T>): Effect.Effect<EffectThread<T>, CodexError>;
  resumeThread(threadId: string, params?: ThreadResumeParams<T>): Effect.Effect<EffectThread<T>, CodexError>;
}

/** The Codex client as an Effect service (default protocol). */
export class CodexClient extends Context.Service<CodexClient, CodexService>()("@codex-rpc/effect/CodexClient") {}

/** Wraps a core client (any protocol) in the service's shape. */
export function makeCodexService<T extends ProtocolTypesShape>(client: CoreClient<T>): CodexService<T> {
  return {
    client,
    request: (method, params, policy) => {
      const timeoutMs = policy?.timeout === undefined ? undefined : Duration.toMillis(policy.timeout);
      const once = fromPromise((signal) =>
        (client.request as (m: string, p: unknown, o: object) => Promise<ResultIn<T["clientRequests"], typeof method>>)(method, params, {
          signal,
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
        }),
      );
      return policy?.retry ? Effect.retry(once, policy.retry) : once;
    },
    notifications: (method) => streamFrom(endingAs(client.notifications(method), closedByUser(client))),
    startThread: (params) => fromPromise(() => client.startThread(params)).pipe(Effect.map(effectThread)),
    resumeThread: (threadId, params) => fromPromise(() => client.resumeThread(threadId, params)).pipe(Effect.map(effectThread)),
  };
}

/** Core's client options without the server-request ones (those are Effects here) and the handshake `signal` (interruption is). */
export type ClientOptions<T extends ProtocolTypesShape = DefaultProtocolTypes> = Omit<
  CodexClientOptions<T>,
  "approvals" | "elicitations" | "userInput" | "refreshChatgptAuthTokens" | "handlers" | "tools" | "signal"
>;

export interface CodexLayerOptions<
  R = never,
  T extends ProtocolTypesShape = DefaultProtocolTypes,
  RA = R,
  RE = R,
  RU = R,
  RF = R,
  RH = R,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<R>[],
> extends ClientOptions<T>,
    ServerRequestEffects<R, T, RA, RE, RU, RF, RH, Tools> {}

/** The options of a Layer of the default protocol, each server-request field with its own requirements (see ServerRequestEffects). */
export type LayerOptions<RA, RE, RU, RF, RH, Tools extends readonly EffectTool<unknown>[]> = CodexLayerOptions<
  never,
  DefaultProtocolTypes,
  RA,
  RE,
  RU,
  RF,
  RH,
  Tools
>;

/** What a Layer connects with: a transport (or a factory of them, for `reconnect`), opened by an Effect. */
export type Connect<E = never, RC = never> = Effect.Effect<Transport | TransportFactory, E, RC>;

/**
 * Connects a core client (any protocol) held by the current Scope: closing the scope closes the
 * client and its transport. Interrupting the handshake closes the transport too (core's `signal`).
 */
export function connectScoped<T extends ProtocolTypesShape = DefaultProtocolTypes, R = never, E = never, RC = never>(
  connect: Connect<E, RC>,
  options: CodexLayerOptions<R, T> = {},
) {
  return Effect.gen(function* () {
    const context = yield* Effect.context<R>();
    const transport = yield* connect;
    const coreOptions = { ...stripEffects(options), ...serverRequestOptions(options, context) } as CodexClientOptions<T>;
    // The handshake can be interrupted: core's signal aborts it and closes the transport.
    return yield* acquireAbortable(
      (signal) => CoreClient.connect<T>(transport, { ...coreOptions, signal }),
      (client) => client.close(),
    );
  });
}

function stripEffects<R, T extends ProtocolTypesShape>(options: CodexLayerOptions<R, T>): ClientOptions<T> {
  const { approvals: _a, elicitations: _e, userInput: _u, refreshChatgptAuthTokens: _r, handlers: _h, tools: _t, ...rest } = options;
  return rest;
}

/** A service of `CodexService<T>` under `tag`, connected by `connect` with `options` (their `protocol` is T's); scoped like `layer`. */
export function serviceLayer<I, T extends ProtocolTypesShape, R = never, E = never, RC = never>(
  tag: Context.Key<I, CodexService<T>>,
  connect: Connect<E, RC>,
  options: CodexLayerOptions<R, T>,
): Layer.Layer<I, CodexError | E, Exclude<R | RC, Scope.Scope>> {
  return Layer.effect(
    tag,
    Effect.map(connectScoped<T, R, E, RC>(connect, options), (client) => makeCodexService(client)),
  );
}

/** The `CodexClient` service, connected by `connect` (which may acquire in the Layer's scope); scoped: the Layer's scope closes the client. */
export function layer<
  RA = never,
  RE = never,
  RU = never,
  RF = never,
  RH = never,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<never>[],
  E = never,
  RC = never,
>(
  connect: Connect<E, RC>,
  options: LayerOptions<RA, RE, RU, RF, RH, Tools> = {},
): Layer.Layer<CodexClient, CodexError | E, Exclude<ServicesOf<RA, RE, RU, RF, RH, Tools> | RC, Scope.Scope>> {
  // Each field needs a part of ServicesOf<…> (the tools theirs, which TypeScript does not see through `Tools`).
  return serviceLayer<CodexClient, DefaultProtocolTypes, ServicesOf<RA, RE, RU, RF, RH, Tools>, E, RC>(
    CodexClient,
    connect,
    options as CodexLayerOptions<ServicesOf<RA, RE, RU, RF, RH, Tools>>,
  );
}

/**
 * The client's end as an outcome (asked for only when a Stream ends, so no rejection is left
 * unhandled): fine when the program closed it, ConnectionClosed when the connection ended otherwise
 * (the server exited, the socket dropped for good). Core ends its Observables either way.
 */
function closedByUser(client: { readonly closed: Promise<TransportCloseInfo> }): () => Promise<void> {
  return () => client.closed.then((info) => (info.reason === "closed" ? undefined : Promise.reject(new ConnectionClosedError(info))));
}
