import type { KnownServerRequestMethod } from "./server-request-defaults.js";

/**
 * What answers each known server request, in a few words, for the `unhandled-server-request`
 * diagnostic. The runtime's copy of SERVER_REQUEST_DEFAULTS' `answerWith`, without its prose:
 * that table (Markdown, for the README and for tools) stays out of a bundle that does not import
 * it. A test keeps the two in step.
 */
export const SERVER_REQUEST_HINTS: { readonly [M in KnownServerRequestMethod]?: string } = {
  "item/commandExecution/requestApproval": "approvals",
  "item/fileChange/requestApproval": "approvals",
  "item/permissions/requestApproval": "approvals",
  "mcpServer/elicitation/request": "approvals or elicitations",
  "item/tool/requestUserInput": "userInput",
  "item/tool/call": "tools (defineTool)",
  "account/chatgptAuthTokens/refresh": "refreshChatgptAuthTokens",
  "attestation/generate": 'handlers: { "attestation/generate": … }',
  "currentTime/read": 'handlers: { "currentTime/read": … }',
  applyPatchApproval: "approvals",
  execCommandApproval: "approvals",
};

/** The diagnostic for a server request refused with -32601 because nothing answers it. */
export function unhandledRequestMessage(method: string): string {
  const hint = Object.hasOwn(SERVER_REQUEST_HINTS, method) ? SERVER_REQUEST_HINTS[method as KnownServerRequestMethod] : undefined;
  const name = method.slice(0, 100);
  return hint
    ? `refused ${name} with -32601: no handler is registered; answer it with ${hint}`
    : `no helper yet for ${name}: refused with -32601; register a handler for it (client.handle or the handlers option)`;
}
