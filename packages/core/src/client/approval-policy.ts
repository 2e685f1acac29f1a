import type { GrantedPermissionProfile, JsonValue, McpServerElicitationRequestResponse, ReviewDecision, ServerRequestMap } from "@codex-rpc/protocol";
import { InvalidHandlerResultError } from "../errors/errors.js";
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

/** Answers one approval request according to the policy. */
export async function answerApproval(
  policy: ApprovalPolicy,
  method: ApprovalMethod,
  params: unknown,
  signal: AbortSignal,
): Promise<ServerRequestMap[ApprovalMethod]["result"]> {
  const kind = APPROVAL_KINDS[method];
  const request = (kind === "mcpElicitation" ? { kind, method, params, toolCall: mcpToolCallOf(params) } : { kind, method, params }) as ApprovalRequest;
  const allowed = allowedDecisions(params);
  let decision: unknown = typeof policy === "function" ? await policy(request, { signal }) : policy;
  if (!DECISIONS.has(decision)) {
    throw new InvalidHandlerResultError(method, `the approval policy returned ${describeDecision(decision)}; expected one of ${[...DECISIONS].join(", ")}`);
  }
  // The policy "acceptForSession" means "accept, for the session where the server offers that":
  // codex 0.169.0 offers a command ["accept", {…amendment}, "cancel"], so it accepts this one. A
  // callback's own decision is checked as it is.
  if (policy === "acceptForSession" && allowed && !allowed.includes("acceptForSession") && allowed.includes("accept")) decision = "accept";
  const response = approvalResponse(request, decision as ApprovalDecision);
  const sent = (response as { decision?: unknown }).decision;
  // Declining is always allowed: codex 0.169.0 lists ["accept", {…amendment}, "cancel"] for a command
  // and still takes "decline" (the item ends "declined"), the safe answer a client must be able to give.
  if (allowed && typeof sent === "string" && sent !== "decline" && !allowed.includes(sent)) {
    throw new InvalidHandlerResultError(method, `the decision "${sent}" is not one the server offered (${allowed.join(", ")})`);
  }
  return response;
}

const DECISIONS: ReadonlySet<unknown> = new Set<ApprovalDecision>(["accept", "acceptForSession", "decline", "cancel"]);

function describeDecision(value: unknown): string {
  return typeof value === "string" ? `"${value.slice(0, 50)}"` : value === null ? "null" : `a ${typeof value}`;
}

/** The decisions the request offers, where the server lists them (`availableDecisions`, string entries). */
function allowedDecisions(params: unknown): string[] | undefined {
  const available = typeof params === "object" && params !== null ? (params as { availableDecisions?: unknown }).availableDecisions : undefined;
  if (!Array.isArray(available)) return undefined;
  const names = available.filter((entry): entry is string => typeof entry === "string");
  return names.length > 0 ? names : undefined;
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

function metaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = isRecord(params) ? params._meta : undefined;
  return isRecord(meta) ? meta : undefined;
}

/** codex marks its MCP tool approvals with `_meta.codex_approval_kind: "mcp_tool_call"` and names the tool and its arguments. */
function mcpToolCallOf(params: unknown): McpToolCallApproval | undefined {
  const meta = metaOf(params);
  if (meta?.codex_approval_kind !== "mcp_tool_call" || typeof meta.tool_name !== "string") return undefined;
  const server = (params as { serverName?: unknown }).serverName;
  return { server: typeof server === "string" ? server : "", tool: meta.tool_name, arguments: (meta.tool_params ?? null) as JsonValue };
}

function reviewDecision(decision: ApprovalDecision): ReviewDecision {
  if (decision === "accept") return "approved";
  if (decision === "acceptForSession") return "approved_for_session";
  if (decision === "cancel") return "abort";
  return { denied: { rejection: "Declined by the client's approval policy." } };
}
