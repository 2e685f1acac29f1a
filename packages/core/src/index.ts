// @codex-rpc/core: the user API. What adapter authors need is in `@codex-rpc/core/transport`, what
// process adapters share in `@codex-rpc/core/process`, and what tests read of the internals in
// `@codex-rpc/core/testing`.
export { CodexClient, type ClientState, type CodexClientOptions, type RequestArgs, type ServerRequestHandler } from "./client/codex-client.js";
// Threads and turns come from the client (`startThread`, `thread.run`): types only, no constructor.
export type { CodexThread } from "./session/codex-thread.js";
export type { CodexTurn, CompletedTurn, TurnOptions } from "./session/codex-turn.js";
export type { CodexCommand, CommandExit, CommandOutputChunk } from "./session/codex-command.js";
export type { CodexAccount, ChatGptLogin, DeviceCodeLogin, LoginCompletion, LoginOptions, PendingLogin } from "./client/account-api.js";
export type { ExecOptions } from "./client/command-exec.js";
export type { CodexFs, FsChange } from "./client/fs-api.js";
export type { ModelListOptions, ModelOf } from "./client/model-list.js";
export type { TurnItemUpdate } from "./session/turn-items.js";
export type { CodexReviewTurn, CompletedReview, ReviewOptions, ReviewTargetOf } from "./session/codex-review-turn.js";
export type { ListOptions, PageEntryIn } from "./session/paginate.js";
export type { OutputOf, OutputSchema } from "./session/structured-output.js";
export type { JsonSchemaObject, SchemaOutput, StandardSchemaWithJsonSchema } from "./util/standard-schema-json.js";
export { OutputValidationError } from "./errors/output-validation-error.js";
export { ThreadBusyError, TurnNotRunningError } from "./errors/turn-errors.js";
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
  TokenUsageOf,
  UserInputOf,
} from "./rpc/protocol-types.js";
export { approvalResponse, type ApprovalDecision, type ApprovalPolicy, type ApprovalRequest, type McpToolCallApproval } from "./client/approval-policy.js";
// What a relay answers for a client that is gone: the policy's answer to one approval request (@codex-rpc/relay).
export { answerApproval, isApprovalMethod } from "./client/approval-policy.js";
export { noUserInput, userInputAnswers } from "./client/user-input.js";
export { SERVER_REQUEST_DEFAULTS, serverRequestDefault, type KnownServerRequestMethod, type ServerRequestDefault } from "./client/server-request-defaults.js";
export {
  defineTool,
  type DynamicTool,
  type DynamicToolContext,
  type DynamicToolNamespace,
  type DynamicToolOutput,
  type JsonSchemaToolDefinition,
  type SchemaToolDefinition,
} from "./client/dynamic-tools.js";
export type { StandardJSONSchemaV1, StandardSchemaV1, StandardTypedV1 } from "./util/standard-schema.js";
export {
  JsonRpcReplyError,
  type ConnectionDiagnostic,
  type ConnectionOptions,
  type RequestOptions,
  type ServerRequestContext,
} from "./rpc/json-rpc-connection.js";
export type { Disposer } from "./util/dispose-symbols.js";
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
  JsonRpcId,
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
