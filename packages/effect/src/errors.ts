// Tagged errors, one per code of core's CodexRpcError (packages/core/src/errors/errors.ts), so an
// Effect program matches them with `Effect.catchTag`. Each keeps core's error as `cause` and its
// stable `code`; the fields a user acts on are copied out. Core already redacted and bounded them.
import {
  CodexRpcError,
  ConnectionClosedError,
  InvalidOptionError,
  MethodNotSupportedError,
  ProtocolError as CoreProtocolError,
  ProtocolVersionMismatchError,
  RequestAbortedError,
  RequestTimeoutError,
  ServerError as CoreServerError,
  ServerOverloadedError,
  TurnTimeoutError,
  ValidationFailedError,
  type CodexRpcErrorCode,
} from "@codex-rpc/core";
import { Cause, Data, Effect } from "effect";

/** What every tagged error carries: core's `code` and message, and core's error as `cause`. */
interface Base {
  readonly code: CodexRpcErrorCode;
  readonly message: string;
  readonly cause: CodexRpcError;
}

/** The transport closed (the server exited, was killed, or the socket dropped) while this was pending. */
export class ConnectionClosed extends Data.TaggedError("ConnectionClosed")<
  Base & {
    readonly reason: "closed" | "eof" | "exit" | "error";
    readonly exitCode: number | null | undefined;
    readonly signal: string | null | undefined;
    readonly stderrTail: readonly string[];
    readonly closeCode: number | undefined;
    readonly method: string | undefined;
  }
> {}
/** A request got no reply within its timeout. */
export class RequestTimeout extends Data.TaggedError("RequestTimeout")<Base & { readonly method: string; readonly timeoutMs: number }> {}
/** A request was aborted through its AbortSignal (not by interrupting its fiber: that is an interruption). */
export class RequestAborted extends Data.TaggedError("RequestAborted")<Base & { readonly method: string }> {}
interface ServerFields {
  readonly method: string;
  readonly rpcCode: number;
  readonly rpcMessage: string;
  readonly data: unknown;
}
/** The server answered with a JSON-RPC error (`rpcCode`, redacted `rpcMessage` and `data`). */
export class ServerError extends Data.TaggedError("ServerError")<Base & ServerFields> {}
/** The server kept answering -32001 "Server overloaded" past core's retry budget. */
export class ServerOverloaded extends Data.TaggedError("ServerOverloaded")<Base & ServerFields & { readonly attempts: number }> {}
/** The server's codex version has no such method. */
export class MethodNotSupported extends Data.TaggedError("MethodNotSupported")<
  Base & ServerFields & { readonly serverVersion: string | undefined; readonly protocolVersion: string }
> {}
/** With `strictVersion`: the server runs another codex version than the client's protocol. */
export class ProtocolVersionMismatch extends Data.TaggedError("ProtocolVersionMismatch")<
  Base & { readonly serverVersion: string | undefined; readonly protocolVersion: string }
> {}
/** With `validate`: a result did not match the generated schema. */
export class ValidationFailed extends Data.TaggedError("ValidationFailed")<
  Base & { readonly method: string; readonly part: "params" | "result"; readonly errors: readonly unknown[] }
> {}
/** The server sent something the client cannot use where it needs it. */
export class ProtocolError extends Data.TaggedError("ProtocolError")<Base & { readonly method: string; readonly detail: string }> {}
/** A turn ran longer than its `turnTimeoutMs` (the server was asked to interrupt it). */
export class TurnTimeout extends Data.TaggedError("TurnTimeout")<
  Base & { readonly threadId: string; readonly turnId: string | undefined; readonly timeoutMs: number }
> {}
/** An option cannot be used as given (caught before anything is opened or sent). */
export class InvalidOption extends Data.TaggedError("InvalidOption")<Base & { readonly option: string; readonly detail: string }> {}
/** A second handler for the same server request. */
export class HandlerAlreadyRegistered extends Data.TaggedError("HandlerAlreadyRegistered")<Base> {}
/** `steer` on a turn that is not running. */
export class TurnNotRunning extends Data.TaggedError("TurnNotRunning")<Base> {}
/** `whenBusy: "fail"` on a thread whose turn is still running or queued. */
export class ThreadBusy extends Data.TaggedError("ThreadBusy")<Base> {}
/** A turn's final message did not parse or validate against its `outputSchema`. */
export class OutputInvalid extends Data.TaggedError("OutputInvalid")<Base> {}
/** A handler's answer could not be sent. */
export class InvalidHandlerResult extends Data.TaggedError("InvalidHandlerResult")<Base> {}
/** A consumer fell further behind than its high-water mark allows. */
export class QueueOverflow extends Data.TaggedError("QueueOverflow")<Base> {}
/** No codex binary was found (the message lists where it looked). */
export class BinaryNotFound extends Data.TaggedError("BinaryNotFound")<Base> {}
/** No connection could be opened. */
export class ConnectFailed extends Data.TaggedError("ConnectFailed")<Base> {}
/** The server refused the credentials. */
export class Unauthorized extends Data.TaggedError("Unauthorized")<Base> {}
/** The runtime cannot do what was asked. */
export class Unsupported extends Data.TaggedError("Unsupported")<Base> {}

/** Every error a request, a turn or a Layer of this package can fail with. */
export type CodexError =
  | ConnectionClosed
  | RequestTimeout
  | RequestAborted
  | ServerError
  | ServerOverloaded
  | MethodNotSupported
  | ProtocolVersionMismatch
  | ValidationFailed
  | ProtocolError
  | TurnTimeout
  | InvalidOption
  | HandlerAlreadyRegistered
  | TurnNotRunning
  | ThreadBusy
  | OutputInvalid
  | InvalidHandlerResult
  | QueueOverflow
  | BinaryNotFound
  | ConnectFailed
  | Unauthorized
  | Unsupported;

/** The tag of each code: `TAG_OF_CODE[error.code]` names the class `fromCodexRpcError` builds. */
export const TAG_OF_CODE = {
  CONNECTION_CLOSED: "ConnectionClosed",
  REQUEST_TIMEOUT: "RequestTimeout",
  REQUEST_ABORTED: "RequestAborted",
  SERVER_ERROR: "ServerError",
  SERVER_OVERLOADED: "ServerOverloaded",
  METHOD_NOT_SUPPORTED: "MethodNotSupported",
  PROTOCOL_VERSION_MISMATCH: "ProtocolVersionMismatch",
  VALIDATION_FAILED: "ValidationFailed",
  PROTOCOL_ERROR: "ProtocolError",
  TURN_TIMEOUT: "TurnTimeout",
  INVALID_OPTION: "InvalidOption",
  HANDLER_ALREADY_REGISTERED: "HandlerAlreadyRegistered",
  TURN_NOT_RUNNING: "TurnNotRunning",
  THREAD_BUSY: "ThreadBusy",
  OUTPUT_INVALID: "OutputInvalid",
  INVALID_HANDLER_RESULT: "InvalidHandlerResult",
  QUEUE_OVERFLOW: "QueueOverflow",
  BINARY_NOT_FOUND: "BinaryNotFound",
  CONNECT_FAILED: "ConnectFailed",
  UNAUTHORIZED: "Unauthorized",
  UNSUPPORTED: "Unsupported",
} as const satisfies Record<CodexRpcErrorCode, CodexError["_tag"]>;

/**
 * Core's error as its tagged error; undefined for an error whose code needs fields its class did
 * not give (a plain CodexRpcError coded SERVER_ERROR, say): `failWith` makes that a defect.
 */
export function fromCodexRpcError(error: CodexRpcError): CodexError | undefined {
  const base = { code: error.code, message: error.message, cause: error };
  if (error instanceof ConnectionClosedError) {
    const { close } = error;
    return new ConnectionClosed({
      ...base,
      reason: close.reason,
      exitCode: close.exitCode,
      signal: close.signal,
      stderrTail: close.stderrTail ?? [],
      closeCode: close.closeCode,
      method: error.method,
    });
  }
  if (error instanceof RequestTimeoutError) return new RequestTimeout({ ...base, method: error.method, timeoutMs: error.timeoutMs });
  if (error instanceof RequestAbortedError) return new RequestAborted({ ...base, method: error.method });
  if (error instanceof CoreServerError) {
    const server = { ...base, method: error.method, rpcCode: error.rpcCode, rpcMessage: error.rpcMessage, data: error.data };
    if (error instanceof ServerOverloadedError) return new ServerOverloaded({ ...server, attempts: error.attempts });
    if (error instanceof MethodNotSupportedError) {
      return new MethodNotSupported({ ...server, serverVersion: error.serverVersion, protocolVersion: error.protocolVersion });
    }
    return new ServerError(server);
  }
  if (error instanceof ProtocolVersionMismatchError) {
    return new ProtocolVersionMismatch({ ...base, serverVersion: error.serverVersion, protocolVersion: error.protocolVersion });
  }
  if (error instanceof ValidationFailedError) return new ValidationFailed({ ...base, method: error.method, part: error.part, errors: error.errors });
  if (error instanceof CoreProtocolError) return new ProtocolError({ ...base, method: error.method, detail: error.detail });
  if (error instanceof TurnTimeoutError) return new TurnTimeout({ ...base, threadId: error.threadId, turnId: error.turnId, timeoutMs: error.timeoutMs });
  if (error instanceof InvalidOptionError) return new InvalidOption({ ...base, option: error.option, detail: error.detail });
  return plainTagged(error.code, base);
}

const PLAIN = {
  HandlerAlreadyRegistered,
  TurnNotRunning,
  ThreadBusy,
  OutputInvalid,
  InvalidHandlerResult,
  QueueOverflow,
  BinaryNotFound,
  ConnectFailed,
  Unauthorized,
  Unsupported,
} as const;

/** The codes whose error carries only the base fields (whatever class core built it with, e.g. WebSocketConnectError). */
function plainTagged(code: CodexRpcErrorCode, base: Base): CodexError | undefined {
  const Plain = (PLAIN as Partial<Record<string, new (fields: Base) => CodexError>>)[TAG_OF_CODE[code]];
  return Plain ? new Plain(base) : undefined;
}

/**
 * What a core call threw, in the error channel: a CodexRpcError becomes its tagged error; anything
 * else is a defect (a bug, not an outcome a program handles).
 */
export function failWith(thrown: unknown): Effect.Effect<never, CodexError> {
  return Effect.failCause(causeOf(thrown));
}

/** The same as a Cause: a failure with the tagged error, or a defect. */
export function causeOf(thrown: unknown): Cause.Cause<CodexError> {
  const tagged = thrown instanceof CodexRpcError ? fromCodexRpcError(thrown) : undefined;
  return tagged ? Cause.fail(tagged) : Cause.die(thrown);
}

/**
 * A core call as an Effect: `call` gets an AbortSignal that fires when the fiber is interrupted
 * (core then aborts the request: `RequestAbortedError` is not seen, the fiber is already gone);
 * a CodexRpcError it throws or rejects with is its tagged error, anything else a defect.
 */
export function fromPromise<A>(call: (signal: AbortSignal) => PromiseLike<A>): Effect.Effect<A, CodexError> {
  return Effect.callback<A, CodexError>((resume, signal) => {
    try {
      call(signal).then(
        (value) => resume(Effect.succeed(value)),
        (thrown: unknown) => resume(failWith(thrown)),
      );
    } catch (thrown) {
      resume(failWith(thrown));
    }
  });
}
