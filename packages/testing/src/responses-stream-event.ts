// The Responses API Server-Sent Events the mock provider emits, in the shapes codex 0.169.0
// accepts. Codex is lenient (it needs far less than this, see the README); the mock sends what
// the real API sends for these events so a stream captured from it reads like a real one.

/** Token counts in the Responses API's own spelling. */
export interface ResponsesUsage {
  readonly input_tokens: number;
  readonly input_tokens_details: { readonly cached_tokens: number };
  readonly output_tokens: number;
  readonly output_tokens_details: { readonly reasoning_tokens: number };
  readonly total_tokens: number;
}

export interface ResponsesOutputText {
  readonly type: "output_text";
  readonly text: string;
  readonly annotations: readonly never[];
}

export interface ResponsesMessageItem {
  readonly type: "message";
  readonly id: string;
  readonly role: "assistant";
  readonly status: "in_progress" | "completed";
  readonly content: readonly ResponsesOutputText[];
}

export interface ResponsesFunctionCallItem {
  readonly type: "function_call";
  readonly id: string;
  readonly call_id: string;
  readonly name: string;
  /** Dynamic tools declared inside a `namespace` spec are called with their namespace here. */
  readonly namespace?: string;
  /** The arguments as a JSON text, as the model produced them. */
  readonly arguments: string;
  readonly status: "in_progress" | "completed";
}

export interface ResponsesSummaryText {
  readonly type: "summary_text";
  readonly text: string;
}

export interface ResponsesReasoningText {
  readonly type: "reasoning_text";
  readonly text: string;
}

/** `summary` is empty in `output_item.added`; `content` only when the reply scripted a reasoning text. */
export interface ResponsesReasoningItem {
  readonly type: "reasoning";
  readonly id: string;
  readonly summary: readonly ResponsesSummaryText[];
  readonly content?: readonly ResponsesReasoningText[];
}

export type ResponsesOutputItem = ResponsesMessageItem | ResponsesFunctionCallItem | ResponsesReasoningItem;

interface ReasoningEventTarget {
  readonly item_id: string;
  readonly output_index: number;
}

export interface ResponsesResponse {
  readonly id: string;
  readonly object: "response";
  /** Unix seconds. */
  readonly created_at: number;
  readonly status: "in_progress" | "completed" | "failed";
  readonly model: string;
  readonly output: readonly ResponsesOutputItem[];
  readonly usage?: ResponsesUsage;
  readonly error?: { readonly code: string; readonly message: string };
}

export type ResponsesStreamEvent =
  | { readonly type: "response.created"; readonly response: ResponsesResponse }
  | { readonly type: "response.output_item.added"; readonly output_index: number; readonly item: ResponsesOutputItem }
  | {
      readonly type: "response.output_text.delta";
      readonly item_id: string;
      readonly output_index: number;
      readonly content_index: number;
      readonly delta: string;
    }
  | (ReasoningEventTarget & { readonly type: "response.reasoning_text.delta"; readonly content_index: number; readonly delta: string })
  | (ReasoningEventTarget & { readonly type: "response.reasoning_text.done"; readonly content_index: number; readonly text: string })
  | (ReasoningEventTarget & {
      readonly type: "response.reasoning_summary_part.added" | "response.reasoning_summary_part.done";
      readonly summary_index: number;
      readonly part: ResponsesSummaryText;
    })
  | (ReasoningEventTarget & { readonly type: "response.reasoning_summary_text.delta"; readonly summary_index: number; readonly delta: string })
  | (ReasoningEventTarget & { readonly type: "response.reasoning_summary_text.done"; readonly summary_index: number; readonly text: string })
  | { readonly type: "response.output_item.done"; readonly output_index: number; readonly item: ResponsesOutputItem }
  | { readonly type: "response.completed"; readonly response: ResponsesResponse }
  | { readonly type: "response.failed"; readonly response: ResponsesResponse };

/** One SSE frame: the `event:` line repeats the JSON's `type`, as the Responses API does. */
export function encodeServerSentEvent(event: ResponsesStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
