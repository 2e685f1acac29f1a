// What a script entry is: the answer to one `POST /v1/responses`. Build them with `reply.*`;
// the shapes are plain data so a test can also write or inspect them directly.

/** An assistant message, streamed as one `response.output_text.delta` per entry of `deltas`. */
export interface ScriptedMessage {
  readonly type: "message";
  /** The message text in the pieces it is streamed in; codex reports their concatenation. */
  readonly deltas: readonly string[];
}

/** A `function_call` output item: codex runs the tool and sends its output in the next request. */
export interface ScriptedFunctionCall {
  readonly type: "function_call";
  readonly name: string;
  /** Only for dynamic tools declared in a `namespace` spec. */
  readonly namespace?: string;
  /** The arguments as JSON text. */
  readonly arguments: string;
  /** Links the call to the `function_call_output` codex sends back. */
  readonly callId: string;
}

/**
 * A `reasoning` output item, streamed before the answer: the model's reasoning text (one
 * `reasoning_text` content part) and/or its summary (`summary_text` parts).
 */
export interface ScriptedReasoning {
  readonly type: "reasoning";
  /** Each summary part in the pieces it is streamed in (`response.reasoning_summary_text.delta`). */
  readonly summary: readonly (readonly string[])[];
  /** The reasoning text in its pieces (`response.reasoning_text.delta`); absent: the item has no `content`. */
  readonly text?: readonly string[];
}

export type ScriptedOutputItem = ScriptedMessage | ScriptedFunctionCall | ScriptedReasoning;

/** Token counts reported in `response.completed` (codex turns them into `thread/tokenUsage/updated`). */
export interface ScriptedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
  readonly reasoningOutputTokens?: number;
}

/** A 200 response streaming output items, normally ending with `response.completed`. */
export interface StreamReply {
  readonly kind: "stream";
  readonly output: readonly ScriptedOutputItem[];
  readonly usage: ScriptedUsage;
  /** Set by `reply.cutStream`: end the body after this many events, before `response.completed`. */
  readonly cutAfterEvents?: number;
}

/** A stream whose only output is one function call; `callId` is what to look for in the next request. */
export interface FunctionCallReply extends StreamReply {
  readonly callId: string;
}

/** A 200 stream that reports a model-side failure: `response.created`, then `response.failed`. */
export interface FailedResponseReply {
  readonly kind: "failed";
  readonly code: string;
  readonly message: string;
}

/** A non-2xx HTTP answer instead of a stream. */
export interface HttpErrorReply {
  readonly kind: "httpError";
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Never answers: the request stays open until codex gives up on it or the provider closes. */
export interface HangReply {
  readonly kind: "hang";
}

export type ScriptedReply = StreamReply | FailedResponseReply | HttpErrorReply | HangReply;
