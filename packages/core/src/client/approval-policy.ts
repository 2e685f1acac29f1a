import type { ServerRequestMap } from "@codex-rpc/protocol";
import { loadWithin } from "../rpc/load-within.js";
import type { ApprovalMethod, ApprovalPolicy } from "./approval-response.js";
import { ANSWERS_LOAD_BOUND_MS } from "./server-request-fallback.js";

// The approval policy: its vocabulary and answers are in approval-response, the answering in
// approval-answer (loaded on demand).
export { approvalResponse, isApprovalMethod, offeredPersistence } from "./approval-response.js";
export type { ApprovalDecision, ApprovalMethod, ApprovalPolicy, ApprovalRequest, McpToolCallApproval } from "./approval-response.js";

/**
 * Answers one approval request according to the policy (what the client does for approvals no
 * handler takes; a relay answers for a page that is gone with it). The work is in approval-answer,
 * loaded on demand: a client that is never asked does not carry it. A load that fails throws its
 * error; one that stalls throws RequestTimeoutError after ANSWERS_LOAD_BOUND_MS (RequestAbortedError
 * when `signal` fires first), so the caller can still answer.
 */
export async function answerApproval(
  policy: ApprovalPolicy,
  method: ApprovalMethod,
  params: unknown,
  signal: AbortSignal,
): Promise<ServerRequestMap[ApprovalMethod]["result"]> {
  return (await loadWithin(import("./approval-answer.js"), method, ANSWERS_LOAD_BOUND_MS, signal)).answerByPolicy(policy, method, params, signal);
}
