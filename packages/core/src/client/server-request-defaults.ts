import type { ServerRequestMap as StableServerRequestMap } from "@codex-rpc/protocol";
import type { ServerRequestMap as ExperimentalServerRequestMap } from "@codex-rpc/protocol/experimental";

/** What the client does with one kind of server request that no registered handler answers. */
export interface ServerRequestDefault {
  /** The answer the server gets when no handler is registered and no option is given (Markdown). */
  readonly withoutHandler: string;
  /** The option or helper that answers it (Markdown); `handlers` / `client.handle()` always win. */
  readonly answerWith: string;
}

/** Every server request method of the protocol `@codex-rpc/protocol` was generated from, both surfaces. */
export type KnownServerRequestMethod = Extract<keyof StableServerRequestMap | keyof ExperimentalServerRequestMap, string>;

/**
 * The defaults of every server request this client knows, by method (the README's "Server
 * requests" table is generated from it by `tools/server-request-table.mjs`). A partial record on
 * purpose: a method a newer codex adds has no entry, and the client refuses it with -32601 and an
 * `unhandled-server-request` diagnostic saying "no helper yet" instead of failing to compile.
 * Documentation as data: nothing at runtime reads it (the diagnostics use SERVER_REQUEST_HINTS),
 * so its Markdown stays out of a browser bundle that does not import it.
 */
export const SERVER_REQUEST_DEFAULTS: { readonly [M in KnownServerRequestMethod]?: ServerRequestDefault } = {
  "item/commandExecution/requestApproval": {
    withoutHandler: '`approvals` policy, default decline: `{ decision: "decline" }`',
    answerWith:
      '`approvals`: `"acceptForSession"` (accepts this one where a session is not offered) or a callback (kind `commandExecution`); a callback\'s decision outside `availableDecisions` is an `InvalidHandlerResultError`',
  },
  "item/fileChange/requestApproval": {
    withoutHandler: '`approvals` policy, default decline: `{ decision: "decline" }`',
    answerWith: "`approvals` (kind `fileChange`)",
  },
  "item/permissions/requestApproval": {
    withoutHandler: '`approvals` policy, default decline: `{ permissions: {}, scope: "turn" }`',
    answerWith: "`approvals` (kind `permissions`): accepting grants the profile asked for",
  },
  "mcpServer/elicitation/request": {
    withoutHandler:
      'a yes/no elicitation (an empty form: codex asks this way before it runs an MCP tool) goes to the `approvals` policy, default decline: `{ action: "decline" }`; a form with fields or a URL: `{ action: "decline" }`',
    answerWith:
      '`approvals` (kind `mcpElicitation`, with `toolCall`; `"acceptForSession"` sends `_meta: { persist: "session" }` where `_meta.persist` offers it); `elicitations` for forms and URLs (content checked against the form\'s schema)',
  },
  "item/tool/requestUserInput": {
    withoutHandler: "`{ answers: {} }`: no answer; the model gets it as the tool's output and the turn goes on",
    answerWith: '`userInput` (answers checked against the questions), `userInputAnswers({ id: "label" })`',
  },
  "item/tool/call": {
    withoutHandler:
      "runs the tool of `tools` it names (by namespace and name), its arguments validated by its schema first; an unknown tool, invalid arguments or a throwing handler: `success: false` with a text the model reads; without `tools`: -32601",
    answerWith: "`tools`, `defineTool({ name, schema, handler })` (a Standard Schema or JSON Schema)",
  },
  "account/chatgptAuthTokens/refresh": {
    withoutHandler: '-32601: codex 0.169.0 fails the turn with "auth refresh request failed: code=-32601"',
    answerWith: "`refreshChatgptAuthTokens` (the tokens are checked for shape, never logged)",
  },
  "attestation/generate": {
    withoutHandler: "-32601: the client has no attestation token to give",
    answerWith: '`handlers: { "attestation/generate": … }`',
  },
  "currentTime/read": {
    withoutHandler: "the client's clock: `{ currentTimeAt: <Unix seconds> }`",
    answerWith: '`handlers: { "currentTime/read": … }` (e.g. a fixed clock in tests)',
  },
  applyPatchApproval: {
    withoutHandler: "`approvals` policy, default decline: `{ decision: { denied: … } }` (v1 API)",
    answerWith: "`approvals` (kind `applyPatch`)",
  },
  execCommandApproval: {
    withoutHandler: "`approvals` policy, default decline: `{ decision: { denied: … } }` (v1 API)",
    answerWith: "`approvals` (kind `execCommand`)",
  },
};

/** The default of a server request method, or undefined for one this client has no helper for yet. */
export function serverRequestDefault(method: string): ServerRequestDefault | undefined {
  return Object.hasOwn(SERVER_REQUEST_DEFAULTS, method) ? SERVER_REQUEST_DEFAULTS[method as KnownServerRequestMethod] : undefined;
}
