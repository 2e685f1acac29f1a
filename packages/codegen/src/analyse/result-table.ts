/**
 * Results the `XParams → XResponse` naming convention cannot find.
 *
 * The JSON Schemas never link a request to its response type; upstream keeps that link in
 * `codex-rs/app-server-protocol/src/protocol/common.rs` (`client_request_definitions!`) and does
 * not export it. Most methods follow the convention; these do not, because they take no params
 * (`params: null`), or because several methods share one response type, or because the params
 * and response were named apart. A method missing from both fails generation by name.
 */
export const RESULT_TABLE: Readonly<Record<string, string>> = {
  // No params.
  "account/logout": "LogoutAccountResponse",
  "account/gatewayOAuth/cancel": "GatewayOAuthCancelResponse",
  "account/securitySetup/read": "GetAccountSecuritySetupResponse",
  "account/workspaceMessages/read": "GetWorkspaceMessagesResponse",
  "config/mcpServer/reload": "McpServerRefreshResponse",
  "configRequirements/read": "ConfigRequirementsReadResponse",
  "externalAgentConfig/import/readHistories": "ExternalAgentConfigImportHistoriesReadResponse",
  "windowsSandbox/readiness": "WindowsSandboxReadinessResponse",
  // No params; experimental surface only.
  "memory/reset": "MemoryResetResponse",
  "remoteControl/status/read": "RemoteControlStatusReadResponse",
  "rollout/compress": "RolloutCompressResponse",
  // Both config writes answer with the same shape.
  "config/value/write": "ConfigWriteResponse",
  "config/batchWrite": "ConfigWriteResponse",
  // Params and response named apart (AccountSessionsListParams → AccountSessionsResponse); experimental.
  "accountSession/list": "AccountSessionsResponse",
};
