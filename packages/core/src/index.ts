export { CodexClient, type ClientState, type CodexClientOptions, type RequestArgs, type ServerRequestHandlerFor } from "./codex-client.js";
export { Thread } from "./thread.js";
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
} from "./protocol-types.js";
export { Turn, type CompletedTurn, type TurnOptions } from "./turn.js";
export type { TurnItemUpdate } from "./turn-items.js";
export { approvalResponse, type ApprovalDecision, type ApprovalPolicy, type ApprovalRequest } from "./approval-policy.js";
export { dynamicToolSpecs, type DynamicTool } from "./dynamic-tools.js";
export {
  JsonRpcConnection,
  JsonRpcReplyError,
  type ConnectionDiagnostic,
  type JsonRpcConnectionOptions,
  type RequestOptions,
  type ServerRequestContext,
  type ServerRequestHandler,
} from "./json-rpc-connection.js";
export type { OverloadRetryOptions } from "./overload-retry.js";
export type { BackoffOptions } from "./backoff.js";
export type { Reconnection, ReconnectOptions, ResumedThread, TransportFactory } from "./reconnect-policy.js";
export type { Transport, TransportDiagnostic } from "./transport.js";
export type {
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcSuccess,
  RequestId,
} from "./json-rpc-message.js";
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
} from "./errors.js";
export { toAsyncIterable, type AsyncIterableOptions } from "./async-iterable.js";
export { NdjsonDecoder, DEFAULT_MAX_LINE_BYTES, type NdjsonDecoderOptions } from "./framing/ndjson-decoder.js";
export { encodeNdjsonLine } from "./framing/ndjson-encoder.js";
export { diagnosticExcerpt } from "./framing/diagnostic-excerpt.js";
export {
  createNdjsonTransport,
  type NdjsonInputSink,
  type NdjsonTransport,
  type NdjsonTransportOptions,
} from "./ndjson-transport.js";
export { redactSecrets } from "./redact-secrets.js";
export { StderrTail } from "./stderr-tail.js";
export { readStderrInto, type StderrReader } from "./stderr-reader.js";
export { settlesWithin } from "./settles-within.js";
export { startTimer, checkTimeout, MAX_TIMER_DELAY_MS, type CancelTimer } from "./long-timer.js";
export { createOrphanReaper, type TerminableChild } from "./orphan-reaper.js";
export { CODEX_ENVIRONMENT_NEEDS, codexChildEnvironment } from "./codex-child-environment.js";
export type { ProcessTransportOptions } from "./process-transport-options.js";
export {
  WebStreamProcessTransport,
  type ProcessExit,
  type ProcessStdin,
  type WebStreamProcess,
} from "./web-stream-process-transport.js";
export {
  codexPlatformTarget,
  environmentFromRecord,
  isNodeScript,
  searchCodexBinary,
  type CodexBinaryHost,
  type CodexBinarySearchOptions,
  type CodexPlatformTarget,
  type EnvironmentLookup,
} from "./codex-binary-search.js";
export { stripAnsi } from "./strip-ansi.js";
export { MessageInbox } from "./message-inbox.js";
export { streamWriter } from "./stream-writer.js";
