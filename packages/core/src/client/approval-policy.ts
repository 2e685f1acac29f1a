import type {
  ApplyPatchApprovalParams,
  CommandExecutionRequestApprovalParams,
  ExecCommandApprovalParams,
  FileChangeRequestApprovalParams,
  GrantedPermissionProfile,
  PermissionsRequestApprovalParams,
  ReviewDecision,
  ServerRequestMap,
} from "@codex-rpc/protocol";
import { InvalidHandlerResultError } from "../errors/errors.js";

/** One decision vocabulary for every kind of approval; mapped to each method's own answer. */
export type ApprovalDecision = "accept" | "acceptForSession" | "decline" | "cancel";

/** An approval the server asks for, by kind, with the server's own params. */
export type ApprovalRequest =
  | { readonly kind: "commandExecution"; readonly method: "item/commandExecution/requestApproval"; readonly params: CommandExecutionRequestApprovalParams }
  | { readonly kind: "fileChange"; readonly method: "item/fileChange/requestApproval"; readonly params: FileChangeRequestApprovalParams }
  | { readonly kind: "permissions"; readonly method: "item/permissions/requestApproval"; readonly params: PermissionsRequestApprovalParams }
  | { readonly kind: "execCommand"; readonly method: "execCommandApproval"; readonly params: ExecCommandApprovalParams }
  | { readonly kind: "applyPatch"; readonly method: "applyPatchApproval"; readonly params: ApplyPatchApprovalParams };

/**
 * How approvals are answered when no handler for the method is registered: "decline" (the
 * default: nothing runs unless the user said so), "acceptForSession", or a callback.
 */
export type ApprovalPolicy =
  | "decline"
  | "acceptForSession"
  | ((request: ApprovalRequest, context: { readonly signal: AbortSignal }) => ApprovalDecision | Promise<ApprovalDecision>);

export type ApprovalMethod = ApprovalRequest["method"];

const APPROVAL_KINDS: Readonly<Record<ApprovalMethod, ApprovalRequest["kind"]>> = {
  "item/commandExecution/requestApproval": "commandExecution",
  "item/fileChange/requestApproval": "fileChange",
  "item/permissions/requestApproval": "permissions",
  execCommandApproval: "execCommand",
  applyPatchApproval: "applyPatch",
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
  const request = { kind: APPROVAL_KINDS[method], method, params } as ApprovalRequest;
  const decision: unknown = typeof policy === "function" ? await policy(request, { signal }) : policy;
  if (!DECISIONS.has(decision)) {
    throw new InvalidHandlerResultError(method, `the approval policy returned ${describeDecision(decision)}; expected one of ${[...DECISIONS].join(", ")}`);
  }
  const response = approvalResponse(request, decision as ApprovalDecision);
  const allowed = allowedDecisions(params);
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
  }
}

function reviewDecision(decision: ApprovalDecision): ReviewDecision {
  if (decision === "accept") return "approved";
  if (decision === "acceptForSession") return "approved_for_session";
  if (decision === "cancel") return "abort";
  return { denied: { rejection: "Declined by the client's approval policy." } };
}
