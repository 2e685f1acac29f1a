export { MockResponsesProvider, type MockResponsesProviderOptions, type WaitOptions } from "./mock-responses-provider.js";
export {
  reply,
  type CutStreamOptions,
  type ExecCommandArguments,
  type FunctionCallOptions,
  type ReasoningOptions,
  type ReviewFinding,
  type ReviewVerdict,
  type TextOptions,
  type UserInputQuestion,
} from "./reply.js";
export type {
  FailedResponseReply,
  FunctionCallReply,
  HangReply,
  HttpErrorReply,
  ScriptedFunctionCall,
  ScriptedMessage,
  ScriptedOutputItem,
  ScriptedReasoning,
  ScriptedReply,
  ScriptedUsage,
  StreamReply,
} from "./scripted-reply.js";
export {
  RecordedRequest,
  type FunctionCallOutput,
  type RequestOutcome,
  type ResponsesInputItem,
} from "./recorded-request.js";
export type {
  ResponsesFunctionCallItem,
  ResponsesMessageItem,
  ResponsesOutputItem,
  ResponsesOutputText,
  ResponsesReasoningItem,
  ResponsesReasoningText,
  ResponsesResponse,
  ResponsesStreamEvent,
  ResponsesSummaryText,
  ResponsesUsage,
} from "./responses-stream-event.js";
export { createCodexHome, type CodexHome, type CodexHomeOptions, type ModelProviderEndpoint } from "./codex-home.js";
export { codexConfigToml, MOCK_PROVIDER_ID, type CodexConfigOptions, type McpServerConfig } from "./codex-config-toml.js";
export { MockProviderError, type TestingErrorCode } from "./errors.js";
// The in-memory app-server lives in core (its own tests use it); the kit hands it on.
export { FakeAppServer, type FakeAppServerOptions, type FakeReply, type FakeTurnScript } from "@codex-rpc/core/testing";
