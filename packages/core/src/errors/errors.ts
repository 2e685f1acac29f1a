import { describeThrown, excerptOf } from "../util/describe-value.js";
import { redactDeep, redactedStart } from "../util/redact-secrets.js";

/** The longest server error message kept (the rest is cut). */
const MAX_SERVER_MESSAGE_CHARS = 2_000;

/** Every error the client raises has a stable `code`; switch on it, not on messages. */
export type CodexRpcErrorCode =
  | "CONNECTION_CLOSED"
  | "REQUEST_TIMEOUT"
  | "REQUEST_ABORTED"
  | "SERVER_ERROR"
  | "SERVER_OVERLOADED"
  | "HANDLER_ALREADY_REGISTERED"
  | "VALIDATION_FAILED"
  /** The server sent something the client cannot use where it needs it (e.g. a `turn/start` result without `turn`). */
  | "PROTOCOL_ERROR"
  /** A turn did not end within its `turnTimeoutMs`. */
  | "TURN_TIMEOUT"
  /** `steer` on a turn that is not running (ended, or not the thread's active turn). */
  | "TURN_NOT_RUNNING"
  /** `run()` with `whenBusy: "fail"` on a thread whose turn is still running or queued. */
  | "THREAD_BUSY"
  /** A turn's final message did not parse or validate against its `outputSchema`. */
  | "OUTPUT_INVALID"
  /** A handler (server request, approval policy) returned something that cannot be sent as the answer. */
  | "INVALID_HANDLER_RESULT"
  /** A `for await` loop fell further behind than its high-water mark allows. */
  | "QUEUE_OVERFLOW"
  /** The server runs another codex version than the protocol the client was built with (with `strictVersion`). */
  | "PROTOCOL_VERSION_MISMATCH"
  /** The server's codex version has no such method. */
  | "METHOD_NOT_SUPPORTED"
  /** An option the caller passed cannot be used as given (e.g. a token with a line break). */
  | "INVALID_OPTION"
  | "BINARY_NOT_FOUND"
  /** No connection could be opened: nothing listening, refused, timed out, or closed during the opening handshake. */
  | "CONNECT_FAILED"
  /** The server refused the credentials (a missing or wrong bearer token). */
  | "UNAUTHORIZED"
  /** The runtime cannot do what was asked (e.g. send an Authorization header from a browser). */
  | "UNSUPPORTED";

/** Base class: a stable `code` and the context a user needs to act on the error. */
export class CodexRpcError extends Error {
  override name = "CodexRpcError";
  readonly code: CodexRpcErrorCode;

  constructor(code: CodexRpcErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** How a transport ended: what the connection reports when it closes. */
export interface TransportCloseInfo {
  /** `closed` means the client closed it; the others mean it went away. */
  readonly reason: "closed" | "eof" | "exit" | "error";
  /** Process transports: the exit code, or null when a signal ended the process. */
  readonly exitCode?: number | null;
  /** Process transports: the signal that ended the process, if any (e.g. `SIGKILL`). */
  readonly signal?: string | null;
  /** The last lines the server wrote to stderr (ANSI stripped, secrets redacted). */
  readonly stderrTail?: readonly string[];
  /** The underlying error, when one caused the close. */
  readonly error?: unknown;
  /** WebSocket transports: the close frame's code (1006: the connection dropped without one). */
  readonly closeCode?: number;
  /** WebSocket transports: the close frame's reason, if any. */
  readonly closeReason?: string;
}

/** The transport closed: every pending request and running turn rejects with this. */
export class ConnectionClosedError extends CodexRpcError {
  override name = "ConnectionClosedError";
  readonly close: TransportCloseInfo;
  /** The request that was pending, when the error belongs to one. */
  readonly method: string | undefined;
  readonly requestId: string | number | undefined;

  constructor(close: TransportCloseInfo, request?: { method: string; id?: string | number }) {
    super("CONNECTION_CLOSED", describeClose(close, request), { cause: close.error });
    this.close = close;
    this.method = request?.method;
    this.requestId = request?.id;
  }
}

function describeClose(close: TransportCloseInfo, request?: { method: string; id?: string | number }): string {
  const parts = [request ? `${request.method}${request.id === undefined ? "" : ` (id ${request.id})`} failed: connection closed` : "connection closed"];
  if (close.reason === "exit") {
    parts.push(close.signal ? `server killed by ${close.signal}` : `server exited with code ${close.exitCode ?? "?"}`);
  } else if (close.reason === "eof") {
    parts.push(
      close.closeCode === undefined
        ? "server closed its output"
        : `server closed the connection (code ${close.closeCode}${close.closeReason ? `: ${describeThrown(close.closeReason)}` : ""})`,
    );
  } else if (close.reason === "error") {
    // The runtime's error text can quote a URL with credentials or a header: redacted like the rest.
    parts.push(`transport error: ${describeThrown(close.error)}`);
  } else {
    parts.push("closed by the client");
  }
  if (close.stderrTail && close.stderrTail.length > 0) parts.push(`last stderr:\n  ${close.stderrTail.join("\n  ")}`);
  return parts.join("; ");
}

/** A request got no reply within its timeout. */
export class RequestTimeoutError extends CodexRpcError {
  override name = "RequestTimeoutError";
  constructor(
    readonly method: string,
    /** Undefined when the call timed out before its request went out (a module it loads on demand never arrived). */
    readonly requestId: string | number | undefined,
    readonly timeoutMs: number,
  ) {
    super("REQUEST_TIMEOUT", `${method}${requestId === undefined ? "" : ` (id ${requestId})`} got no reply within ${timeoutMs} ms`);
  }
}

/** The caller aborted a request (its AbortSignal fired). */
export class RequestAbortedError extends CodexRpcError {
  override name = "RequestAbortedError";
  constructor(
    readonly method: string,
    readonly requestId: string | number | undefined,
    readonly reason: unknown,
  ) {
    super("REQUEST_ABORTED", `${method}${requestId === undefined ? "" : ` (id ${requestId})`} was aborted`, { cause: reason });
  }
}

/** The server answered a request with a JSON-RPC error. */
export class ServerError extends CodexRpcError {
  override name = "ServerError";
  /** The JSON-RPC error code (e.g. -32600 invalid request, -32603 internal error); -32603 when the server's was not an integer. */
  readonly rpcCode: number;
  /** The server's error message, secrets redacted. */
  readonly rpcMessage: string;
  /** A copy of the error's `data`, every string redacted (bounded in size). */
  readonly data: unknown;
  /** The code as it was given, even when it was not an integer (a string, NaN); redacted like `data`. */
  readonly rawCode: unknown;
  constructor(
    readonly method: string,
    readonly requestId: string | number,
    rpcCode: number,
    rpcMessage: string,
    data: unknown,
    code: "SERVER_ERROR" | "SERVER_OVERLOADED" | "METHOD_NOT_SUPPORTED" = "SERVER_ERROR",
  ) {
    // Servers echo what they were sent (keys, tokens): nothing they say leaves unredacted.
    const safeCode = Number.isSafeInteger(rpcCode) ? rpcCode : JSON_RPC_INTERNAL_ERROR;
    // Bounded too: a server can send a megabyte of message, and errors get logged and kept.
    const safeMessage = redactedStart(String(rpcMessage), MAX_SERVER_MESSAGE_CHARS);
    super(code, `${method} (id ${requestId}) failed: ${safeMessage} (${safeCode})`);
    this.rpcCode = safeCode;
    this.rpcMessage = safeMessage;
    this.data = redactDeep(data);
    this.rawCode = redactDeep(rpcCode);
  }
}

/** The server kept answering -32001 "Server overloaded" until the retry budget ran out. */
export class ServerOverloadedError extends ServerError {
  override name = "ServerOverloadedError";
  constructor(
    method: string,
    requestId: string | number,
    rpcMessage: string,
    data: unknown,
    /** How many times the request was sent in all. */
    readonly attempts: number,
  ) {
    super(method, requestId, JSON_RPC_OVERLOADED, `${rpcMessage} (gave up after ${attempts} attempts)`, data, "SERVER_OVERLOADED");
  }
}

/** A message (params or result) did not match the generated schema validator. */
export class ValidationFailedError extends CodexRpcError {
  override name = "ValidationFailedError";
  constructor(
    readonly method: string,
    readonly part: "params" | "result",
    readonly errors: readonly unknown[],
  ) {
    super("VALIDATION_FAILED", `${method} ${part} does not match the codex schema: ${describeErrors(errors)}`);
  }
}

/** The first validator errors, bounded: an error path can be as deep as the message. */
function describeErrors(errors: readonly unknown[]): string {
  try {
    return JSON.stringify(errors.slice(0, 3)).slice(0, 500);
  } catch {
    return `${errors.length} errors`;
  }
}

/** The JSON-RPC error codes the client sends or recognises. */
export const JSON_RPC_METHOD_NOT_FOUND = -32601;
export const JSON_RPC_INTERNAL_ERROR = -32603;
export const JSON_RPC_INVALID_PARAMS = -32602;
export const JSON_RPC_OVERLOADED = -32001;

/**
 * The server's reply or notification lacks what the client needs to go on (e.g. `turn/start`
 * answered without `turn`): the request or turn waiting on it settles with this error.
 */
export class ProtocolError extends CodexRpcError {
  override name = "ProtocolError";
  constructor(
    /** The method whose message was malformed. */
    readonly method: string,
    /** What was wrong, e.g. "result.turn.id is missing". */
    readonly detail: string,
  ) {
    super("PROTOCOL_ERROR", `${method}: ${detail}`);
  }
}

/** A turn ran longer than its `turnTimeoutMs`; the client asked the server to interrupt it. */
export class TurnTimeoutError extends CodexRpcError {
  override name = "TurnTimeoutError";
  constructor(
    readonly threadId: string,
    readonly turnId: string | undefined,
    readonly timeoutMs: number,
  ) {
    // Ids come from the server: bounded and redacted like everything else it sends.
    super(
      "TURN_TIMEOUT",
      `turn ${turnId === undefined ? "(not started)" : excerptOf(turnId)} on thread ${excerptOf(threadId)} did not end within ${timeoutMs} ms`,
    );
  }
}

/**
 * A handler's answer could not be sent: not JSON (a BigInt, a cycle, a function, a Symbol), or an
 * approval decision the request does not allow. The server gets a -32603 error instead.
 */
export class InvalidHandlerResultError extends CodexRpcError {
  override name = "InvalidHandlerResultError";
  constructor(
    readonly method: string,
    readonly detail: string,
  ) {
    super("INVALID_HANDLER_RESULT", `the answer to ${method} cannot be sent: ${detail}`);
  }
}

/** A `for await` consumer fell more than `highWaterMark` values behind: the loop throws this after the values it had. */
export class QueueOverflowError extends CodexRpcError {
  override name = "QueueOverflowError";
  constructor(readonly highWaterMark: number) {
    super("QUEUE_OVERFLOW", `the loop fell more than ${highWaterMark} values behind its stream; values after that were not queued`);
  }
}

/** What to do when the server runs another codex version than the client's protocol. */
function versionAdvice(serverVersion: string | undefined): string {
  if (serverVersion === undefined) return "check the server's codex version";
  return `install @codex-rpc/protocol built for codex ${serverVersion}, or generate one: npx -p @codex-rpc/codegen codex-rpc-gen generate --codex-version ${serverVersion} --out ./codex-protocol`;
}

/** With `strictVersion`, `connect()` refuses a server whose codex version differs from the client's protocol. */
export class ProtocolVersionMismatchError extends CodexRpcError {
  override name = "ProtocolVersionMismatchError";
  constructor(
    /** The server's codex version (from `userAgent`), if it could be told. */
    readonly serverVersion: string | undefined,
    /** The codex version the client's protocol was generated from. */
    readonly protocolVersion: string,
  ) {
    super(
      "PROTOCOL_VERSION_MISMATCH",
      `the server runs codex ${serverVersion ?? "(unknown version)"} but this client's protocol is for codex ${protocolVersion}: ${versionAdvice(serverVersion)}`,
    );
  }
}

/** The server's codex version does not have this method (codex answers it -32600 "unknown variant"). */
export class MethodNotSupportedError extends ServerError {
  override name = "MethodNotSupportedError";
  constructor(
    error: ServerError,
    /** The server's codex version, if known. */
    readonly serverVersion: string | undefined,
    /** The codex version the client's protocol was generated from. */
    readonly protocolVersion: string,
  ) {
    super(error.method, error.requestId, error.rpcCode, error.rpcMessage, error.data, "METHOD_NOT_SUPPORTED");
    this.message =
      serverVersion === protocolVersion
        ? `${error.method} is not a method of codex ${protocolVersion} (the server runs that version too)`
        : `${error.method} is not supported by the server (codex ${serverVersion ?? "unknown version"}); this client's protocol is for codex ${protocolVersion}: ${versionAdvice(serverVersion)}`;
  }
}

/** An option cannot be used as given: caught before anything is opened or sent. */
export class InvalidOptionError extends CodexRpcError {
  override name = "InvalidOptionError";
  constructor(
    /** The option's name, e.g. `token`. */
    readonly option: string,
    /** What is wrong with it (never its value: options can be secrets). */
    readonly detail: string,
  ) {
    super("INVALID_OPTION", `${option}: ${detail}`);
  }
}
