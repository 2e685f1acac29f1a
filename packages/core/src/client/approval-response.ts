import type { GrantedPermissionProfile, JsonValue, McpServerElicitationRequestResponse, ReviewDecision, ServerRequestMap } from "@codex-rpc/protocol";
import { isRecord } from "../util/is-record.js";
import type { DefaultProtocolTypes, ParamsIn, ProtocolTypesShape } from "../rpc/protocol-types.js";

/** One decision vocabulary for every kind of approval; mapped to each method's own answer. */
export type ApprovalDecision = "accept" | "acceptForSession" | "decline" | "cancel";

/** An approval the server asks for, by kind, with the server's own params (typed by the client's protocol). */
export type ApprovalRequest<T extends ProtocolTypesShape = DefaultProtocolTypes> =
  | {
      readonly kind: "commandExecution";
      readonly method: "item/commandExecution/requestApproval";
      readonly params: ApprovalParams<T, "item/commandExecution/requestApproval">;
    }
  | { readonly kind: "fileChange"; readonly method: "item/fileChange/requestApproval"; readonly params: ApprovalParams<T, "item/fileChange/requestApproval"> }
  | {
      readonly kind: "permissions";
      readonly method: "item/permissions/requestApproval";
      readonly params: ApprovalParams<T, "item/permissions/requestApproval">;
    }
  | { readonly kind: "execCommand"; readonly method: "execCommandApproval"; readonly params: ApprovalParams<T, "execCommandApproval"> }
  | { readonly kind: "applyPatch"; readonly method: "applyPatchApproval"; readonly params: ApprovalParams<T, "applyPatchApproval"> }
  | {
      /**
       * An MCP elicitation that asks yes or no (an empty form): codex asks this way before it runs
       * an MCP tool (then `toolCall` says which), and an MCP server may ask the same itself.
       * Elicitations that ask for content (form fields, a URL) go to the `elicitations` option.
       */
      readonly kind: "mcpElicitation";
      readonly method: "mcpServer/elicitation/request";
      readonly params: ApprovalParams<T, "mcpServer/elicitation/request">;
      /** The MCP tool codex is about to run, when the elicitation is codex's tool-call approval (`_meta.codex_approval_kind`). */
      readonly toolCall: McpToolCallApproval | undefined;
    };

type ApprovalParams<T extends ProtocolTypesShape, M extends string> = ParamsIn<T["serverRequests"], M>;

/** The MCP tool call an elicitation asks about, read from its `_meta` (codex 0.169.0). */
export interface McpToolCallApproval {
  /** The MCP server, as named under `[mcp_servers]` in codex's config. */
  readonly server: string;
  readonly tool: string;
  readonly arguments: JsonValue;
}

/**
 * How approvals are answered when no handler for the method is registered: "decline" (the
 * default: nothing runs unless the user said so), "acceptForSession", or a callback.
 */
export type ApprovalPolicy<T extends ProtocolTypesShape = DefaultProtocolTypes> =
  | "decline"
  | "acceptForSession"
  | ((request: ApprovalRequest<T>, context: { readonly signal: AbortSignal }) => ApprovalDecision | Promise<ApprovalDecision>);

export type ApprovalMethod = ApprovalRequest["method"];

const APPROVAL_KINDS: Readonly<Record<ApprovalMethod, ApprovalRequest["kind"]>> = {
  "item/commandExecution/requestApproval": "commandExecution",
  "item/fileChange/requestApproval": "fileChange",
  "item/permissions/requestApproval": "permissions",
  execCommandApproval: "execCommand",
  applyPatchApproval: "applyPatch",
  "mcpServer/elicitation/request": "mcpElicitation",
};

export function isApprovalMethod(method: string): method is ApprovalMethod {
  return Object.hasOwn(APPROVAL_KINDS, method);
}

/** The kind of approval a method asks for (`ApprovalRequest["kind"]`). */
export function approvalKindOf(method: ApprovalMethod): ApprovalRequest["kind"] {
  return APPROVAL_KINDS[method];
}

/** What each method expects back for a decision. */
export function approvalResponse(request: ApprovalRequest, decision: ApprovalDecision): ServerRequestMap[ApprovalMethod]["result"] {
  switch (request.kind) {
    case "commandExecution":
    case "fileChange":
      return { decision };
    case "permissions": {
      const granted = decision === "accept" || decision === "acceptForSession";
      // The server asks for a profile; granting it means answering with that same profile.
      const permissions = granted ? ((request.params?.permissions ?? {}) as GrantedPermissionProfile) : {};
      return { permissions, scope: decision === "acceptForSession" ? "session" : "turn" };
    }
    case "execCommand":
    case "applyPatch":
      return { decision: reviewDecision(decision) };
    case "mcpElicitation":
      return elicitationDecision(request.params, decision);
  }
}

/**
 * An elicitation answered yes or no. "acceptForSession" asks codex to remember the answer for the
 * session (`_meta: { persist: "session" }`) where the elicitation offers that (its `_meta.persist`
 * lists "session", as codex's MCP tool approvals do); elsewhere it accepts this one request.
 */
function elicitationDecision(params: unknown, decision: ApprovalDecision): McpServerElicitationRequestResponse {
  if (decision === "decline" || decision === "cancel") return { action: decision };
  const remember = decision === "acceptForSession" && offeredPersistence(params).includes("session");
  return remember ? { action: "accept", content: {}, _meta: { persist: "session" } } : { action: "accept", content: {} };
}

/** What an elicitation lets the client ask codex to remember (`_meta.persist`: codex 0.169.0 offers "session" and "always"). */
export function offeredPersistence(params: unknown): string[] {
  const persist = metaOf(params)?.persist;
  return Array.isArray(persist) ? persist.filter((entry): entry is string => typeof entry === "string") : [];
}

export function metaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = isRecord(params) ? params._meta : undefined;
  return isRecord(meta) ? meta : undefined;
}

function reviewDecision(decision: ApprovalDecision): ReviewDecision {
  if (decision === "accept") return "approved";
  if (decision === "acceptForSession") return "approved_for_session";
  if (decision === "cancel") return "abort";
  return { denied: { rejection: "Declined by the client's approval policy." } };
}
