// Turns a scripted reply into the exact SSE event sequence the mock sends:
//
//   response.created
//   per output item:  response.output_item.added
//                     response.output_text.delta × deltas        (messages only)
//                     reasoning text and summary events          (reasoning only, see reasoning-events.ts)
//                     response.output_item.done
//   response.completed                                           (with usage)
//
// `cutAfterEvents` counts events in this sequence. Codex needs `output_item.added` before it
// forwards deltas, takes the final text from `output_item.done` (not from the deltas), and
// treats a stream without `response.completed` (or one whose `response` has no `id`) as
// disconnected.

import { reasoningEvents, reasoningItem } from "./reasoning-events.js";
import type { ResponsesOutputItem, ResponsesResponse, ResponsesStreamEvent, ResponsesUsage } from "./responses-stream-event.js";
import type { FailedResponseReply, ScriptedOutputItem, ScriptedUsage, StreamReply } from "./scripted-reply.js";

/** Ids and names that vary per request; the provider makes them unique. */
export interface ResponseIdentity {
  readonly responseId: string;
  /** Makes output item ids unique: `msg_<tag>_<index>`, `fc_<tag>_<index>`, `rs_<tag>_<index>`. */
  readonly itemIdTag: string;
  /** Echoed from the request body, as the real API does. */
  readonly model: string;
  /** Unix seconds. */
  readonly createdAt: number;
}

const ID_PREFIX: Record<ScriptedOutputItem["type"], string> = { message: "msg", function_call: "fc", reasoning: "rs" };

function toResponsesUsage(usage: ScriptedUsage): ResponsesUsage {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningOutputTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

function outputItem(item: ScriptedOutputItem, id: string, done: boolean): ResponsesOutputItem {
  const status = done ? "completed" : "in_progress";
  if (item.type === "reasoning") return reasoningItem(item, id, done);
  if (item.type === "message") {
    return {
      type: "message",
      id,
      role: "assistant",
      status,
      content: done ? [{ type: "output_text", text: item.deltas.join(""), annotations: [] }] : [],
    };
  }
  return {
    type: "function_call",
    id,
    call_id: item.callId,
    name: item.name,
    ...(item.namespace === undefined ? {} : { namespace: item.namespace }),
    // The real API streams arguments after `added`; the complete text arrives with `done`.
    arguments: done ? item.arguments : "",
    status,
  };
}

function response(identity: ResponseIdentity, fields: Partial<ResponsesResponse>): ResponsesResponse {
  return {
    id: identity.responseId,
    object: "response",
    created_at: identity.createdAt,
    status: "in_progress",
    model: identity.model,
    output: [],
    ...fields,
  };
}

/** The complete event sequence of a stream reply; the provider truncates it for `cutAfterEvents`. */
export function streamReplyEvents(reply: StreamReply, identity: ResponseIdentity): ResponsesStreamEvent[] {
  const events: ResponsesStreamEvent[] = [{ type: "response.created", response: response(identity, {}) }];
  const finished: ResponsesOutputItem[] = [];
  reply.output.forEach((item, outputIndex) => {
    // Codex reuses a message's id as the `agentMessage` item id clients see.
    const itemId = `${ID_PREFIX[item.type]}_${identity.itemIdTag}_${outputIndex}`;
    events.push({ type: "response.output_item.added", output_index: outputIndex, item: outputItem(item, itemId, false) });
    if (item.type === "message") {
      for (const delta of item.deltas) {
        events.push({
          type: "response.output_text.delta",
          item_id: itemId,
          output_index: outputIndex,
          content_index: 0,
          delta,
        });
      }
    }
    if (item.type === "reasoning") events.push(...reasoningEvents(item, itemId, outputIndex));
    const done = outputItem(item, itemId, true);
    finished.push(done);
    events.push({ type: "response.output_item.done", output_index: outputIndex, item: done });
  });
  events.push({
    type: "response.completed",
    response: response(identity, { status: "completed", output: finished, usage: toResponsesUsage(reply.usage) }),
  });
  return events;
}

export function failedReplyEvents(reply: FailedResponseReply, identity: ResponseIdentity): ResponsesStreamEvent[] {
  return [
    { type: "response.created", response: response(identity, {}) },
    {
      type: "response.failed",
      response: response(identity, { status: "failed", error: { code: reply.code, message: reply.message } }),
    },
  ];
}
