import type { DynamicToolCallParams, DynamicToolCallResponse, JsonValue } from "@codex-rpc/protocol";
import type { DynamicToolSpec } from "@codex-rpc/protocol/experimental";
import { redactSecrets } from "../util/redact-secrets.js";

/** A tool the model may call, declared on `thread/start` and answered by this client. */
export interface DynamicTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments. */
  readonly inputSchema: JsonValue;
  /** Returns text for the model, or a full response (e.g. images, `success: false`). */
  handler(
    args: JsonValue,
    context: { readonly threadId: string; readonly turnId: string; readonly callId: string; readonly signal: AbortSignal },
  ): string | DynamicToolCallResponse | Promise<string | DynamicToolCallResponse>;
}

/** The `dynamicTools` entries of `thread/start` for a set of tools. */
export function dynamicToolSpecs(tools: readonly DynamicTool[]): DynamicToolSpec[] {
  return tools.map(({ name, description, inputSchema }) => ({ type: "function", name, description, inputSchema }));
}

/** Answers `item/tool/call`: runs the named tool; an unknown tool or a throwing one answers success: false. */
export async function callDynamicTool(
  tools: ReadonlyMap<string, DynamicTool>,
  params: DynamicToolCallParams,
  signal: AbortSignal,
): Promise<DynamicToolCallResponse> {
  if (typeof params !== "object" || params === null || typeof params.tool !== "string") {
    return failure("The tool call could not be read: it names no tool.");
  }
  const tool = tools.get(params.tool);
  if (!tool) return failure(`Unknown tool "${params.tool}": this client registered ${[...tools.keys()].join(", ") || "no tools"}.`);
  try {
    const output = await tool.handler(params.arguments, {
      threadId: params.threadId,
      turnId: params.turnId,
      callId: params.callId,
      signal,
    });
    return typeof output === "string" ? { success: true, contentItems: [{ type: "inputText", text: output }] } : output;
  } catch (error) {
    return failure(`Tool "${params.tool}" failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The text goes to the model (and the server's logs): a secret in a thrown error must not. */
function failure(text: string): DynamicToolCallResponse {
  return { success: false, contentItems: [{ type: "inputText", text: redactSecrets(text) }] };
}
