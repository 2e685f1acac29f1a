import type { JsonValue, ServerRequestMap } from "@codex-rpc/protocol";
import { InvalidHandlerResultError } from "../errors/errors.js";
import {
  approvalKindOf,
  approvalResponse,
  metaOf,
  type ApprovalDecision,
  type ApprovalMethod,
  type ApprovalPolicy,
  type ApprovalRequest,
  type McpToolCallApproval,
} from "./approval-response.js";

// An approval answered by the policy: loaded on demand (import()) when the first one arrives.

/** Answers one approval request according to the policy (see `answerApproval`). */
export async function answerByPolicy(
  policy: ApprovalPolicy,
  method: ApprovalMethod,
  params: unknown,
  signal: AbortSignal,
): Promise<ServerRequestMap[ApprovalMethod]["result"]> {
  const kind = approvalKindOf(method);
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

/** codex marks its MCP tool approvals with `_meta.codex_approval_kind: "mcp_tool_call"` and names the tool and its arguments. */
function mcpToolCallOf(params: unknown): McpToolCallApproval | undefined {
  const meta = metaOf(params);
  if (meta?.codex_approval_kind !== "mcp_tool_call" || typeof meta.tool_name !== "string") return undefined;
  const server = (params as { serverName?: unknown }).serverName;
  return { server: typeof server === "string" ? server : "", tool: meta.tool_name, arguments: (meta.tool_params ?? null) as JsonValue };
}
