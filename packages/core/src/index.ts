export { CodexClient, type ClientState, type CodexClientOptions, type RequestArgs, type ServerRequestHandlerFor } from "./client/codex-client.js";
export { Thread } from "./session/thread.js";
export type {
  CodexProtocol,
  DefaultProtocolTypes,
  ProtocolTypesShape,
  ProtocolValidatorsShape,
  ClientRequestMethodOf,
  ServerRequestMethodOf,
  ServerNotificationMethodOf,
  ServerNotificationOf,
  ParamsIn,
  ResultIn,
  ThreadInfoOf,
  TurnInfoOf,
  ThreadItemOf,
  UserInputOf,
} from "./rpc/protocol-types.js";
export { Turn, type CompletedTurn, type TurnOptions } from "./session/turn.js";
export type { TurnItemUpdate } from "./session/turn-items.js";
export { approvalResponse, type ApprovalDecision, type ApprovalPolicy, type ApprovalRequest } from "./client/approval-policy.js";
export { dynamicToolSpecs, type DynamicTool } from "./client/dynamic-tools.js";
export {
  JsonRpcConnection,
  JsonRpcReplyError,
  type ConnectionDiagnostic,
  type JsonRpcConnectionOptions,
  type RequestOptions,
  type ServerRequestContext,
  type ServerRequestHandler,
} from "./rpc/json-rpc-connection.js";
export type { OverloadRetryOptions } from "./rpc/overload-retry.js";
export type { BackoffOptions } from "./util/backoff.js";
export type { Reconnection, ReconnectOptions, ResumedThread, TransportFactory } from "./client/reconnect-policy.js";
export type { Transport, TransportDiagnostic } from "./transport/transport.js";
export type {
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcSuccess,
  RequestId,
} from "./framing/json-rpc-message.js";
export {
  CodexRpcError,
  ConnectionClosedError,
  RequestAbortedError,
  RequestTimeoutError,
  ServerError,
  ServerOverloadedError,
  ValidationFailedError,
  ProtocolError,
  TurnTimeoutError,
  InvalidHandlerResultError,
  QueueOverflowError,
  ProtocolVersionMismatchError,
  MethodNotSupportedError,
  InvalidOptionError,
  JSON_RPC_INTERNAL_ERROR,
  JSON_RPC_INVALID_PARAMS,
  JSON_RPC_METHOD_NOT_FOUND,
  JSON_RPC_OVERLOADED,
  type CodexRpcErrorCode,
  type TransportCloseInfo,
} from "./errors/errors.js";
export { toAsyncIterable, type AsyncIterableOptions } from "./session/async-iterable.js";
export { NdjsonDecoder, DEFAULT_MAX_LINE_BYTES, type NdjsonDecoderOptions } from "./framing/ndjson-decoder.js";
export { encodeNdjsonLine } from "./framing/ndjson-encoder.js";
export { diagnosticExcerpt } from "./util/diagnostic-excerpt.js";
export {
  createNdjsonTransport,
  type NdjsonInputSink,
  type NdjsonTransport,
  type NdjsonTransportOptions,
} from "./transport/ndjson-transport.js";
export { redactSecrets } from "./util/redact-secrets.js";
export { StderrTail } from "./process/stderr-tail.js";
export { readStderrInto, type StderrReader } from "./process/stderr-reader.js";
export { settlesWithin } from "./util/settles-within.js";
export { startTimer, checkTimeout, MAX_TIMER_DELAY_MS, type CancelTimer } from "./util/long-timer.js";
export { createOrphanReaper, type TerminableChild } from "./process/orphan-reaper.js";
export { CODEX_ENVIRONMENT_NEEDS, codexChildEnvironment } from "./process/codex-child-environment.js";
export type { ProcessTransportOptions } from "./process/process-transport-options.js";
export {
  WebStreamProcessTransport,
  type ProcessExit,
  type ProcessStdin,
  type WebStreamProcess,
} from "./process/web-stream-process-transport.js";
export {
  codexPlatformTarget,
  environmentFromRecord,
  isNodeScript,
  searchCodexBinary,
  type CodexBinaryHost,
  type CodexBinarySearchOptions,
  type CodexPlatformTarget,
  type EnvironmentLookup,
} from "./process/codex-binary-search.js";
export { stripAnsi } from "./process/strip-ansi.js";
export { MessageInbox } from "./transport/message-inbox.js";
export { streamWriter } from "./transport/stream-writer.js";
