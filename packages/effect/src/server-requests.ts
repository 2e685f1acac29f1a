// Server requests answered by Effects. The Layer captures its environment (`Effect.context<R>()`)
// when it is built and runs each handler with it for core's Promise-based options, so a handler's
// `R` comes from the Layer. Core keeps the defaults, the checks and the one-answer rule.
import type {
  ApprovalDecision,
  ApprovalRequest,
  CodexClientOptions,
  DefaultProtocolTypes,
  ParamsIn,
  ProtocolTypesShape,
  ResultIn,
  ServerRequestContext,
  ServerRequestMethodOf,
} from "@codex-rpc/core";
import type { Context, Effect } from "effect";
import { runHandler } from "./run-handler.js";
import { type EffectTool, toCoreTool } from "./tools.js";

type OptionHandler<K extends "elicitations" | "userInput" | "refreshChatgptAuthTokens", T extends ProtocolTypesShape> = NonNullable<CodexClientOptions<T>[K]>;
type EffectOption<K extends "elicitations" | "userInput" | "refreshChatgptAuthTokens", T extends ProtocolTypesShape, R> = (
  params: Parameters<OptionHandler<K, T>>[0],
  context: ServerRequestContext,
) => Effect.Effect<Awaited<ReturnType<OptionHandler<K, T>>>, unknown, R>;

/** A server request handler as an Effect; a failure or defect is core's `handler-error` (the server gets -32603). */
export type EffectServerRequestHandler<M extends ServerRequestMethodOf<T>, R, T extends ProtocolTypesShape = DefaultProtocolTypes> = (
  params: ParamsIn<T["serverRequests"], M>,
  context: ServerRequestContext,
) => Effect.Effect<ResultIn<T["serverRequests"], M>, unknown, R>;

/**
 * What answers server requests, as Effects needing `R` (provided by the Layer's environment). Each
 * field has its own requirements (`RA` approvals, `RE` elicitations, `RU` user input, `RF` token
 * refresh, `RH` handlers, `Tools` the tools, each tool its own): TypeScript does not unite the
 * candidates of one type parameter, so with one `R` an approval needing one service beside a tool
 * needing another did not compile. The Layer needs their union (`ServicesOf`).
 */
export interface ServerRequestEffects<
  R = never,
  T extends ProtocolTypesShape = DefaultProtocolTypes,
  RA = R,
  RE = R,
  RU = R,
  RF = R,
  RH = R,
  Tools extends readonly EffectTool<unknown>[] = readonly EffectTool<R>[],
> {
  /** Approvals: a fixed policy (default "decline") or an Effect deciding each one (its failure is a handler error: the server gets -32603). */
  readonly approvals?: "decline" | "acceptForSession" | ((request: ApprovalRequest<T>) => Effect.Effect<ApprovalDecision, unknown, RA>);
  /** MCP elicitations that ask for content (forms, URLs); default declined. */
  readonly elicitations?: EffectOption<"elicitations", T, RE>;
  /** The model's `request_user_input`; default `{ answers: {} }`. */
  readonly userInput?: EffectOption<"userInput", T, RU>;
  /** Fresh ChatGPT tokens after a 401; default refused (-32601). */
  readonly refreshChatgptAuthTokens?: EffectOption<"refreshChatgptAuthTokens", T, RF>;
  /** Handlers by method (registered as core's `handlers`: they win over the options). */
  readonly handlers?: { readonly [M in ServerRequestMethodOf<T>]?: EffectServerRequestHandler<M, RH, T> };
  /** Dynamic tools (`defineEffectTool`), declared on every `thread/start`. */
  readonly tools?: Tools;
}

/** What the tools of a `Tools` array need, together. */
export type ServicesOfTools<Tools> = Tools extends readonly (infer Tool)[] ? (Tool extends EffectTool<infer R> ? R : never) : never;

/** What a Layer whose server-request Effects and tools need these needs. */
export type ServicesOf<RA, RE, RU, RF, RH, Tools> = RA | RE | RU | RF | RH | ServicesOfTools<Tools>;

/** The core client options that answer server requests, each running its Effect with `context`; the signal interrupts it. */
export function serverRequestOptions<R, T extends ProtocolTypesShape>(
  effects: ServerRequestEffects<R, T>,
  context: Context.Context<R>,
): Partial<CodexClientOptions<T>> {
  const run = runHandler(context);
  const options: { -readonly [K in keyof CodexClientOptions<T>]?: unknown } = {};
  const { approvals, elicitations, userInput, refreshChatgptAuthTokens, handlers, tools } = effects;
  if (approvals !== undefined) {
    options.approvals =
      typeof approvals === "string" ? approvals : (request: ApprovalRequest<T>, { signal }: { signal: AbortSignal }) => run(approvals(request), signal);
  }
  const option = <P>(handler: ((params: P, context: ServerRequestContext) => Effect.Effect<unknown, unknown, R>) | undefined) =>
    handler && ((params: P, requestContext: ServerRequestContext) => run(handler(params, requestContext), requestContext.signal));
  if (elicitations) options.elicitations = option(elicitations);
  if (userInput) options.userInput = option(userInput);
  if (refreshChatgptAuthTokens) options.refreshChatgptAuthTokens = option(refreshChatgptAuthTokens);
  if (handlers) {
    options.handlers = Object.fromEntries(
      Object.entries(handlers).map(([method, handler]) => [
        method,
        option(handler as (params: unknown, c: ServerRequestContext) => Effect.Effect<unknown, unknown, R>),
      ]),
    );
  }
  if (tools) options.tools = tools.map((tool) => toCoreTool(tool, context));
  return options as Partial<CodexClientOptions<T>>;
}
