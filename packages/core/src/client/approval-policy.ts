import type { ServerRequestMap } from "@codex-rpc/protocol";
import type { ApprovalMethod, ApprovalPolicy } from "./approval-response.js";

// The approval policy: its vocabulary and answers are in approval-response, the answering in
// approval-answer (loaded on demand).
export { approvalResponse, isApprovalMethod, offeredPersistence } from "./approval-response.js";
export type { ApprovalDecision, ApprovalMethod, ApprovalPolicy, ApprovalRequest, McpToolCallApproval } from "./approval-response.js";

/**
 * Answers one approval request according to the policy (what the client does for approvals no
 * handler takes; a relay answers for a page that is gone with it). The work is in approval-answer,
 * loaded on demand: a client that is never asked does not carry it.
 */
export async function answerApproval(
  policy: ApprovalPolicy,
  method: ApprovalMethod,
  params: unknown,
  signal: AbortSignal,
): Promise<ServerRequestMap[ApprovalMethod]["result"]> {
  return (await import("./approval-answer.js")).answerByPolicy(policy, method, params, signal);
}
