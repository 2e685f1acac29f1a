import type { DynamicToolCallParams, DynamicToolCallResponse } from "@codex-rpc/protocol";
import type { ThreadListener } from "../session/session-host.js";
import { describeThrown } from "../util/describe-value.js";
import { isRecord } from "../util/is-record.js";
import { redactSecrets } from "../util/redact-secrets.js";
import { checkToolArguments } from "./tool-arguments.js";
import type { ToolRegistry } from "./tool-registry.js";

/** Follows a thread's notifications until the returned disposer is called (the client's router). */
export type ListenToThread = (threadId: string, listener: ThreadListener) => () => void;

/**
 * Answers `item/tool/call`: finds the tool by namespace and name, validates the arguments (its
 * Standard Schema, else its JSON Schema), runs its handler. Whatever goes wrong (an unknown tool, invalid arguments, a
 * throwing handler) is a `success: false` answer whose text the model reads, never a JSON-RPC
 * error. The handler's signal also aborts when the call's turn ends: codex 0.169.0 sends no
 * `serverRequest/resolved` for a tool call cut off by an interrupt (measured).
 */
export async function callDynamicTool(
  registry: ToolRegistry,
  params: DynamicToolCallParams,
  requestSignal: AbortSignal,
  listenToThread?: ListenToThread,
): Promise<DynamicToolCallResponse> {
  if (!isRecord(params) || typeof params.tool !== "string") return failure("The tool call could not be read: it names no tool.");
  const namespace = typeof params.namespace === "string" ? params.namespace : null;
  const entry = registry.find(namespace, params.tool);
  if (!entry) {
    const named = namespace === null ? params.tool : `${namespace}.${params.tool}`;
    return failure(`Unknown tool "${named}": this client registered ${registry.labels().join(", ") || "no tools"}.`);
  }
  const checked = await checkToolArguments(entry.label, entry.validator, params.arguments);
  if (!checked.ok) return failure(checked.message);
  const cancellation = callSignal(params, requestSignal, listenToThread);
  try {
    const output = await entry.tool.handler(checked.value, {
      threadId: params.threadId,
      turnId: params.turnId,
      callId: params.callId,
      signal: cancellation.signal,
    });
    if (typeof output === "string") return { success: true, contentItems: [{ type: "inputText", text: output }] };
    // A JavaScript handler can return anything: what is no tool response goes back as the tool failing.
    if (!isRecord(output) || typeof output.success !== "boolean" || !Array.isArray(output.contentItems)) {
      return failure(`Tool "${entry.label}" returned no answer (expected a string or { success, contentItems })`);
    }
    return output as DynamicToolCallResponse;
  } catch (error) {
    return failure(`Tool "${entry.label}" failed: ${describeThrown(error)}`);
  } finally {
    cancellation.dispose();
  }
}

/** A signal that aborts with the request's (withdrawn, connection closed) or when the call's turn completes. */
function callSignal(params: DynamicToolCallParams, requestSignal: AbortSignal, listenToThread: ListenToThread | undefined) {
  const controller = new AbortController();
  const abort = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const onRequestAbort = () => abort(requestSignal.reason);
  if (requestSignal.aborted) onRequestAbort();
  else requestSignal.addEventListener("abort", onRequestAbort, { once: true });
  const stopListening =
    typeof params.threadId === "string" && listenToThread
      ? listenToThread(params.threadId, {
          notification: (notification) => {
            if (notification.method !== "turn/completed" || notification.params.turn.id !== params.turnId) return;
            abort(new Error(`turn ${params.turnId} ended (${notification.params.turn.status}) before tool call ${params.callId} was answered`));
          },
          closed: (error) => abort(error),
        })
      : undefined;
  return {
    signal: controller.signal as AbortSignal,
    dispose: () => {
      requestSignal.removeEventListener("abort", onRequestAbort);
      stopListening?.();
    },
  };
}

/** The text goes to the model (and the server's logs): a secret in a thrown error must not. */
function failure(text: string): DynamicToolCallResponse {
  return { success: false, contentItems: [{ type: "inputText", text: redactSecrets(text) }] };
}
