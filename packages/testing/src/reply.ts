// The script language: `reply.text("Hello", { chunks: 3 })`, `reply.execCommand({ cmd: "ls" })`, …
// Each builder returns one ScriptedReply, the answer to one model request.

import type {
  FailedResponseReply,
  FunctionCallReply,
  HangReply,
  HttpErrorReply,
  ScriptedOutputItem,
  ScriptedReasoning,
  ScriptedUsage,
  StreamReply,
} from "./scripted-reply.js";

/** The arguments of codex's `exec_command` tool, as its schema in the request body spells them. */
export interface ExecCommandArguments {
  readonly cmd: string;
  /** `require_escalated` runs outside the sandbox; with approvalPolicy "untrusted" codex asks the client first. */
  readonly sandbox_permissions?: "use_default" | "require_escalated";
  /** Shown to the user as the reason in the approval request. */
  readonly justification?: string;
  readonly workdir?: string;
  readonly login?: boolean;
  readonly tty?: boolean;
  readonly shell?: string;
  readonly yield_time_ms?: number;
  readonly max_output_tokens?: number;
  readonly prefix_rule?: readonly string[];
}

/** One question of codex's `request_user_input` tool (as the model sends it). */
export interface UserInputQuestion {
  /** Key of the answer in the client's reply. */
  readonly id: string;
  /** Short label, 12 characters or fewer. */
  readonly header: string;
  readonly question: string;
  readonly options: readonly { readonly label: string; readonly description: string }[];
}

/** What the model reasons before it answers (`reply.reasoning`, or `reply.text`'s `reasoning` option). */
export interface ReasoningOptions {
  /**
   * The reasoning summary: one part (a string) or several; each part is split into `chunks`
   * deltas, or give a part as an array to choose its deltas yourself.
   */
  readonly summary?: string | readonly (string | readonly string[])[];
  /** The raw reasoning text (one `reasoning_text` content part), split into `chunks` deltas, or its deltas. */
  readonly text?: string | readonly string[];
  /** How many deltas each summary part and the text are split into (default 1; never empty ones). */
  readonly chunks?: number;
}

export interface TextOptions {
  /** How many `response.output_text.delta` events to split the text into (default 1; never empty ones). */
  readonly chunks?: number;
  readonly usage?: ScriptedUsage;
  /** Stream a `reasoning` output item before the message. */
  readonly reasoning?: ReasoningOptions;
}

export interface FunctionCallOptions {
  /** Defaults to a fresh `call_mock_<n>`, unique in this process. */
  readonly callId?: string;
  /** For a dynamic tool declared inside a `namespace` spec. */
  readonly namespace?: string;
  readonly usage?: ScriptedUsage;
}

export interface CutStreamOptions {
  /** How many events to send before ending the body; `response.completed` is never among them. */
  readonly afterEvents: number;
  /** The stream to cut (default: a three-chunk text reply). */
  readonly of?: StreamReply;
}

/** One finding of a code review, as a reviewer model reports it (`reply.review`). */
export interface ReviewFinding {
  /** Short and imperative; codex's prompt asks for a priority tag at its start, e.g. "[P1] Check the bound". */
  readonly title: string;
  /** Markdown: why it is a problem. */
  readonly body: string;
  readonly file: string;
  readonly lines: { readonly start: number; readonly end: number };
  /** 0 to 3 (P0 to P3). */
  readonly priority?: number;
  /** 0.0 to 1.0 (default 0.8). */
  readonly confidence?: number;
}

export interface ReviewVerdict {
  readonly findings: readonly ReviewFinding[];
  /** Whether the patch is correct (`overall_correctness`). */
  readonly correct: boolean;
  /** One to three sentences (`overall_explanation`). */
  readonly explanation: string;
  /** 0.0 to 1.0 (default 0.8). */
  readonly confidence?: number;
}

const DEFAULT_USAGE: ScriptedUsage = { inputTokens: 10, outputTokens: 5 };

let callCounter = 0;

function newCallId(): string {
  callCounter += 1;
  return `call_mock_${callCounter}`;
}

/** Splits by code points, so a chunk boundary never falls inside a surrogate pair. */
function splitIntoChunks(text: string, chunks: number): string[] {
  const codePoints = Array.from(text);
  const count = Math.max(1, Math.min(Math.floor(chunks), codePoints.length));
  if (codePoints.length === 0) return [];
  const pieces: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = Math.floor((index * codePoints.length) / count);
    const end = Math.floor(((index + 1) * codePoints.length) / count);
    pieces.push(codePoints.slice(start, end).join(""));
  }
  return pieces;
}

function scriptedReasoning(options: ReasoningOptions): ScriptedReasoning {
  const split = (text: string | readonly string[]) => (typeof text === "string" ? splitIntoChunks(text, options.chunks ?? 1) : [...text]);
  const parts = options.summary === undefined ? [] : typeof options.summary === "string" ? [options.summary] : options.summary;
  return { type: "reasoning", summary: parts.map(split), ...(options.text === undefined ? {} : { text: split(options.text) }) };
}

function stream(output: readonly ScriptedOutputItem[], usage: ScriptedUsage | undefined): StreamReply {
  return { kind: "stream", output, usage: usage ?? DEFAULT_USAGE };
}

function functionCall(name: string, args: unknown, options: FunctionCallOptions = {}): FunctionCallReply {
  const callId = options.callId ?? newCallId();
  const item: ScriptedOutputItem = {
    type: "function_call",
    name,
    arguments: typeof args === "string" ? args : JSON.stringify(args),
    callId,
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
  };
  return { ...stream([item], options.usage), callId };
}

export const reply = {
  /**
   * An assistant message. `chunks` splits the text into that many deltas; pass an array to choose
   * the deltas yourself. Codex shows the deltas as `item/agentMessage/delta` and their
   * concatenation as the final `agentMessage` text.
   */
  text(text: string | readonly string[], options: TextOptions = {}): StreamReply {
    const deltas = typeof text === "string" ? splitIntoChunks(text, options.chunks ?? 1) : [...text];
    const message: ScriptedOutputItem = { type: "message", deltas };
    return stream(options.reasoning === undefined ? [message] : [scriptedReasoning(options.reasoning), message], options.usage);
  },

  /**
   * A `reasoning` output item alone: the reasoning text's deltas, then each summary part's. Codex
   * shows it as a `reasoning` item with `item/reasoning/*` deltas. Put it before an answer with
   * `reply.combined(reply.reasoning({ … }), reply.execCommand({ … }))`, or use `reply.text`'s
   * `reasoning` option.
   */
  reasoning(options: ReasoningOptions & { readonly usage?: ScriptedUsage }): StreamReply {
    return stream([scriptedReasoning(options)], options.usage);
  },

  /**
   * Calls one of the tools codex offered in the request body (`exec_command`, `write_stdin`,
   * `request_user_input`, a dynamic tool, …). `args` is JSON-encoded unless it is a string already.
   */
  functionCall,

  /** `exec_command`: codex runs `cmd` in a shell (asking the client first when policy says so). */
  execCommand(args: ExecCommandArguments, options: FunctionCallOptions = {}): FunctionCallReply {
    return functionCall("exec_command", args, options);
  },

  /** Calls a dynamic tool declared in `thread/start`'s `dynamicTools`; codex sends `item/tool/call` to the client. */
  toolCall(name: string, args: unknown, options: FunctionCallOptions = {}): FunctionCallReply {
    return functionCall(name, args, options);
  },

  /**
   * `request_user_input`: codex sends `item/tool/requestUserInput` to the client, but only in Plan
   * mode (turn/start `collaborationMode`) or with the `default_mode_request_user_input` feature;
   * otherwise the model gets "request_user_input is unavailable in Default mode" back.
   */
  requestUserInput(questions: readonly UserInputQuestion[], options: FunctionCallOptions = {}): FunctionCallReply {
    return functionCall("request_user_input", { questions }, options);
  },

  /**
   * Calls tool `tool` of the MCP server configured as `[mcp_servers.<server>]`: codex 0.169.0 offers
   * an MCP server's tools to the model as a namespace `mcp__<server>`, so this is a `function_call`
   * named `tool` in that namespace. Codex asks the client first (`mcpServer/elicitation/request`)
   * unless the thread's approval policy is `never`, then calls the server (an `mcpToolCall` item).
   */
  mcpToolCall(server: string, tool: string, args: unknown, options: Omit<FunctionCallOptions, "namespace"> = {}): FunctionCallReply {
    return functionCall(tool, args, { ...options, namespace: `mcp__${server}` });
  },

  /**
   * The reviewer's answer to a `review/start` turn: the JSON codex 0.169.0's review prompt asks for
   * (`findings` with `title`, `body`, `confidence_score`, `priority`, `code_location`, then
   * `overall_correctness`, `overall_explanation`, `overall_confidence_score`), as one message.
   * codex renders it into the `exitedReviewMode` item's `review` text.
   */
  review(verdict: ReviewVerdict, options: TextOptions = {}): StreamReply {
    const output = {
      findings: verdict.findings.map((finding) => ({
        title: finding.title,
        body: finding.body,
        confidence_score: finding.confidence ?? 0.8,
        ...(finding.priority === undefined ? {} : { priority: finding.priority }),
        code_location: { absolute_file_path: finding.file, line_range: { start: finding.lines.start, end: finding.lines.end } },
      })),
      overall_correctness: verdict.correct ? "patch is correct" : "patch is incorrect",
      overall_explanation: verdict.explanation,
      overall_confidence_score: verdict.confidence ?? 0.8,
    };
    return reply.text(JSON.stringify(output), options);
  },

  /** One response whose output is the output items of `parts`, in order (e.g. a message, then a call). */
  combined(...parts: readonly StreamReply[]): StreamReply {
    return stream(
      parts.flatMap((part) => part.output),
      parts[0]?.usage,
    );
  },

  /** `response.created` then `response.failed` with this error: a failure reported by the model. */
  failed(message: string, options: { readonly code?: string } = {}): FailedResponseReply {
    return { kind: "failed", code: options.code ?? "server_error", message };
  },

  /**
   * A non-2xx answer. An object body is sent as JSON; the default is the Responses API error shape
   * `{ error: { message, type } }`.
   */
  httpError(status: number, body?: string | object): HttpErrorReply {
    const payload = body ?? { error: { message: `mock provider: scripted HTTP ${status}`, type: "mock_error" } };
    return typeof payload === "string"
      ? { kind: "httpError", status, contentType: "text/plain; charset=utf-8", body: payload }
      : { kind: "httpError", status, contentType: "application/json", body: JSON.stringify(payload) };
  },

  /** A stream that ends cleanly after `afterEvents` events, without `response.completed`. */
  cutStream(options: CutStreamOptions): StreamReply {
    const of = options.of ?? reply.text("This reply is cut short.", { chunks: 3 });
    return { ...of, cutAfterEvents: Math.max(0, Math.floor(options.afterEvents)) };
  },

  /** Never answers; ends when codex drops the request (e.g. `turn/interrupt`) or the provider closes. */
  hang(): HangReply {
    return { kind: "hang" };
  },
} as const;
