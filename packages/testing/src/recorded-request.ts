// One request the mock provider received, with readers for what tests ask of a Responses API
// request body: which model, what the user typed, which tools were offered, which tool outputs
// came back.

import type { IncomingHttpHeaders } from "node:http";
import type { ScriptedReply } from "./scripted-reply.js";

/** What the provider did with a request. */
export type RequestOutcome =
  /** Answered with the next scripted reply (`reply` says which). */
  | "scripted"
  /** `POST /v1/responses` after the script ran out: answered 400 with an explanation. */
  | "unscripted"
  /** Any other method or path: answered 404. */
  | "notFound";

/** An entry of the request's `input` array (messages, function calls, their outputs, …). */
export type ResponsesInputItem = { readonly type?: unknown } & Readonly<Record<string, unknown>>;

export interface FunctionCallOutput {
  readonly callId: string;
  /** A string for text output; an array of content items when the tool returned images and such. */
  readonly output: unknown;
}

export interface RecordedRequestInit {
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  readonly outcome: RequestOutcome;
  readonly reply?: ScriptedReply;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `input_text` parts of a message's `content`. */
function inputTexts(item: ResponsesInputItem): string[] {
  const content = item.content;
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown) => (isRecord(part) && part.type === "input_text" && typeof part.text === "string" ? [part.text] : []));
}

export class RecordedRequest {
  /** 0-based arrival order among all requests the provider received. */
  readonly index: number;
  readonly method: string;
  /** Path and query as sent, e.g. `/v1/responses`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body as text (decompressed when codex compressed it). */
  readonly rawBody: string;
  /** The parsed JSON body, or undefined when the body was empty or not JSON. */
  readonly body: unknown;
  readonly outcome: RequestOutcome;
  /** The script entry that answered it (outcome "scripted"). */
  readonly reply: ScriptedReply | undefined;

  constructor(init: RecordedRequestInit) {
    this.index = init.index;
    this.method = init.method;
    this.path = init.path;
    this.headers = init.headers;
    this.rawBody = init.rawBody;
    this.outcome = init.outcome;
    this.reply = init.reply;
    let body: unknown;
    try {
      body = init.rawBody === "" ? undefined : JSON.parse(init.rawBody);
    } catch {
      body = undefined;
    }
    this.body = body;
  }

  /** The `model` field of the body. */
  get model(): string | undefined {
    const model = isRecord(this.body) ? this.body.model : undefined;
    return typeof model === "string" ? model : undefined;
  }

  /** The body's `input` array: the whole conversation codex sends each time. */
  get input(): readonly ResponsesInputItem[] {
    const input = isRecord(this.body) ? this.body.input : undefined;
    return Array.isArray(input) ? input.filter(isRecord) : [];
  }

  /** The body's `tools` array, as codex offers them to the model. */
  get tools(): readonly Readonly<Record<string, unknown>>[] {
    const tools = isRecord(this.body) ? this.body.tools : undefined;
    return Array.isArray(tools) ? tools.filter(isRecord) : [];
  }

  /** Names of the offered tools (`exec_command`, `request_user_input`, dynamic tools, namespaces, …). */
  toolNames(): string[] {
    return this.tools.flatMap((tool) => (typeof tool.name === "string" ? [tool.name] : []));
  }

  /**
   * Texts of the user messages in `input`, oldest first. Codex sends its own context as user
   * messages too (`<environment_context>…`), so the prompt is usually the last one.
   */
  userTexts(): string[] {
    return this.input.filter((item) => item.type === "message" && item.role === "user").flatMap((item) => inputTexts(item));
  }

  /** The text of the last user message: normally what `turn/start` sent. */
  lastUserText(): string | undefined {
    return this.userTexts().at(-1);
  }

  /** Every `function_call_output` in `input`: the results of earlier tool calls. */
  functionCallOutputs(): FunctionCallOutput[] {
    return this.input.flatMap((item) =>
      item.type === "function_call_output" && typeof item.call_id === "string" ? [{ callId: item.call_id, output: item.output }] : [],
    );
  }

  /** The output codex sent back for `callId`, or undefined when this request does not carry it. */
  functionCallOutput(callId: string): unknown {
    return this.functionCallOutputs().find((output) => output.callId === callId)?.output;
  }
}
