import type { ServerRequestMap } from "@codex-rpc/protocol";
import type { DynamicToolSpec } from "@codex-rpc/protocol/experimental";
import { CodexRpcError, JSON_RPC_INTERNAL_ERROR, ValidationFailedError } from "../errors/errors.js";
import type { JsonRpcRequest } from "../framing/json-rpc-message.js";
import { isReplyError, JsonRpcReplyError, type JsonRpcConnection, type ServerRequestContext } from "../rpc/json-rpc-connection.js";
import { loadWithin } from "../rpc/load-within.js";
import { describeThrown, excerptOf } from "../util/describe-value.js";
import type { ApprovalPolicy } from "./approval-policy.js";
import type { ServerRequestAnswerers } from "./server-request-answers.js";
import { ANSWERS_LOAD_BOUND_MS, fallbackAnswer } from "./server-request-fallback.js";
import type { ListenToThread } from "./tool-call.js";
import type { ToolRuntime } from "./tool-runtime.js";
import { validationErrors, type ValidatorTables } from "./validator-tables.js";

/** A handler as the dispatcher keeps it: untyped (the client's `handle` types it by method). */
export type UntypedServerRequestHandler = (params: unknown, context: ServerRequestContext) => unknown;

/** What the dispatcher reads of the client it answers for. */
export interface ServerRequestDispatcherHost {
  /** The connection in use (a new one after each reconnect): where problems are reported. */
  readonly connection: JsonRpcConnection;
  readonly validators: ValidatorTables | undefined;
  /** Follows a thread's notifications: a tool call's signal aborts when its turn ends. */
  readonly listenToThread?: ListenToThread;
}

/**
 * Answers the server's requests: a registered handler, else the approval policy for approvals
 * (and yes/no MCP elicitations), the `elicitations` handler for MCP forms, the tool registry for
 * `item/tool/call`, the `userInput` handler or "no answer" for user input, the token refresh hook,
 * the clock for `currentTime/read`; else -32601 and an `unhandled-server-request` diagnostic
 * (see SERVER_REQUEST_DEFAULTS).
 */
export class ServerRequestDispatcher {
  private readonly handlers = new Map<string, UntypedServerRequestHandler>();
  /** The client's default answers, loaded on demand when the first request needs them (see `byDefault`). */
  private defaults: Promise<typeof import("./server-request-answers.js")> | undefined;

  constructor(
    private readonly host: ServerRequestDispatcherHost,
    private readonly tools: ToolRuntime | undefined,
    private readonly approvals: ApprovalPolicy,
    private readonly answerers: ServerRequestAnswerers = {},
  ) {}

  /** Whether tools were given (they are declared on every `thread/start`). */
  get hasTools(): boolean {
    return (this.tools?.size ?? 0) > 0;
  }

  /** The `dynamicTools` of `thread/start`. */
  get toolSpecs(): DynamicToolSpec[] {
    return this.tools?.specs() ?? [];
  }

  /**
   * Answers a kind of server request. Returns a disposer; a second handler for the same method
   * throws (dispose the first one to replace it).
   */
  handle(method: string, handler: UntypedServerRequestHandler): () => void {
    if (this.handlers.has(method)) {
      throw new CodexRpcError("HANDLER_ALREADY_REGISTERED", `a handler for ${method} is already registered; dispose it first`);
    }
    const entry = handler;
    this.handlers.set(method, entry);
    return () => {
      if (this.handlers.get(method) === entry) this.handlers.delete(method);
    };
  }

  answer(request: JsonRpcRequest, context: ServerRequestContext): unknown {
    const validate = this.host.validators?.serverRequestValidators[request.method]?.params;
    const errors = validate && validationErrors(validate, request.params);
    if (!errors) return this.dispatch(request, context);
    this.host.connection.report({
      kind: "validation-failed",
      message: new ValidationFailedError(request.method, "params", errors).message,
      excerpt: excerptOf(request),
    });
    // A request already reported as invalid gets its error reply without a second diagnostic.
    let outcome: unknown;
    try {
      outcome = this.dispatch(request, context);
    } catch (error) {
      outcome = Promise.reject(error);
    }
    return Promise.resolve(outcome).catch((error: unknown) => {
      if (isReplyError(error)) throw error;
      throw new JsonRpcReplyError(
        JSON_RPC_INTERNAL_ERROR,
        `client handler for ${request.method} failed on params that do not match the codex schema: ${describeThrown(error)}`,
      );
    });
  }

  private dispatch(request: JsonRpcRequest, context: ServerRequestContext): unknown {
    const handler = this.handlers.get(request.method);
    if (handler) return handler(request.params, context);
    if (request.method === "item/tool/call" && this.tools && this.tools.size > 0) {
      return this.tools.call(request.params as ServerRequestMap["item/tool/call"]["params"], context.signal, this.host.listenToThread);
    }
    if (request.method === "currentTime/read") return { currentTimeAt: Math.floor(Date.now() / 1000) };
    return this.byDefault(request, context);
  }

  /**
   * Approvals, elicitations, user input, token refresh and unknown methods: answered by
   * server-request-answers, loaded (`import()`) when the first of them arrives. Should it fail to
   * load, or not load within ANSWERS_LOAD_BOUND_MS, the request is still answered: declined where a
   * decline exists, else -32601.
   */
  private byDefault(request: JsonRpcRequest, context: ServerRequestContext): Promise<unknown> {
    this.defaults ??= import("./server-request-answers.js");
    // The request's signal fires when the server withdraws it or the connection closes.
    return loadWithin(this.defaults, request.method, ANSWERS_LOAD_BOUND_MS, context.signal).then(
      (module) => module.answerByDefault(this.host.connection, this.approvals, this.answerers, request, context),
      (error: unknown) => {
        this.defaults = undefined; // the next request tries to load it again
        this.host.connection.report({ kind: "handler-error", message: `the client's default answers could not be loaded: ${describeThrown(error)}` });
        return fallbackAnswer(request.method);
      },
    );
  }
}
