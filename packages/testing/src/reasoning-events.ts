// The SSE events of one scripted `reasoning` output item, between its `output_item.added` and
// `output_item.done`, as the Responses API streams reasoning:
//
//   response.reasoning_text.delta × pieces, response.reasoning_text.done       (when there is a text)
//   per summary part j:
//     response.reasoning_summary_part.added   { summary_index: j, part: { type: "summary_text", text: "" } }
//     response.reasoning_summary_text.delta × pieces
//     response.reasoning_summary_text.done    { summary_index: j, text }
//     response.reasoning_summary_part.done    { summary_index: j, part: { type: "summary_text", text } }
//
// codex 0.169.0 parses `reasoning_text.delta` (needs `content_index`), `reasoning_summary_part.added`
// and `reasoning_summary_text.delta` (need `summary_index`), and takes the final item from
// `output_item.done`; the `.done` events are sent because the real API sends them.

import type { ResponsesReasoningItem, ResponsesStreamEvent } from "./responses-stream-event.js";
import type { ScriptedReasoning } from "./scripted-reply.js";

export function reasoningItem(item: ScriptedReasoning, id: string, done: boolean): ResponsesReasoningItem {
  if (!done) return { type: "reasoning", id, summary: [] };
  return {
    type: "reasoning",
    id,
    summary: item.summary.map((pieces) => ({ type: "summary_text", text: pieces.join("") })),
    ...(item.text === undefined ? {} : { content: [{ type: "reasoning_text", text: item.text.join("") }] }),
  };
}

export function reasoningEvents(item: ScriptedReasoning, itemId: string, outputIndex: number): ResponsesStreamEvent[] {
  const at = { item_id: itemId, output_index: outputIndex } as const;
  const events: ResponsesStreamEvent[] = [];
  if (item.text !== undefined) {
    for (const delta of item.text) events.push({ type: "response.reasoning_text.delta", ...at, content_index: 0, delta });
    events.push({ type: "response.reasoning_text.done", ...at, content_index: 0, text: item.text.join("") });
  }
  item.summary.forEach((pieces, summaryIndex) => {
    const text = pieces.join("");
    events.push({ type: "response.reasoning_summary_part.added", ...at, summary_index: summaryIndex, part: { type: "summary_text", text: "" } });
    for (const delta of pieces) events.push({ type: "response.reasoning_summary_text.delta", ...at, summary_index: summaryIndex, delta });
    events.push({ type: "response.reasoning_summary_text.done", ...at, summary_index: summaryIndex, text });
    events.push({ type: "response.reasoning_summary_part.done", ...at, summary_index: summaryIndex, part: { type: "summary_text", text } });
  });
  return events;
}
