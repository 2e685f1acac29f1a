import { canonicalThreadId } from "./thread-id.js";

/**
 * The sub-agent threads a notification's `item` names: a turn may spawn sub-agents (codex 0.169.0
 * offers the model its `multi_agent_v1` tools by default), each on a thread of its own that no
 * request of the page's opened. codex names them in the parent thread's items: a
 * `collabAgentToolCall`'s `receiverThreadIds` (for `spawn_agent`, the thread just spawned) and a
 * `subAgentActivity`'s `agentThreadId`. Measured: after a `spawn_agent` call codex sends the new
 * thread's `turn/started`, items and `turn/completed` (no `thread/started`).
 */
export function subAgentThreadsOf(params: unknown): string[] {
  const item = typeof params === "object" && params !== null ? (params as { item?: unknown }).item : undefined;
  if (typeof item !== "object" || item === null) return [];
  const { type, receiverThreadIds, agentThreadId } = item as { type?: unknown; receiverThreadIds?: unknown; agentThreadId?: unknown };
  const named = type === "collabAgentToolCall" && Array.isArray(receiverThreadIds) ? receiverThreadIds : type === "subAgentActivity" ? [agentThreadId] : [];
  return named.filter((id): id is string => typeof id === "string").map(canonicalThreadId);
}
