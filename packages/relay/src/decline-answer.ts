import { answerApproval, isApprovalMethod, noUserInput } from "@codex-rpc/core";
import type { JsonRpcErrorObject } from "@codex-rpc/core/transport";

/** How the relay answers a server request: a result, or a JSON-RPC error. */
export type RelayAnswer = { readonly result: unknown } | { readonly error: JsonRpcErrorObject };

/**
 * The answer core's client gives a server request nobody handles (SERVER_REQUEST_DEFAULTS): the
 * relay sends it when the connection that owns the request's thread is gone (or the request names
 * no thread). Approvals and elicitations are declined, user input gets no answers, anything else
 * -32601.
 */
export async function declineAnswer(method: string, params: unknown): Promise<RelayAnswer> {
  if (isApprovalMethod(method)) return { result: await answerApproval("decline", method, params, new AbortController().signal) };
  if (method === "item/tool/requestUserInput") return { result: noUserInput() };
  if (method === "currentTime/read") return { result: { currentTimeAt: Math.floor(Date.now() / 1000) } };
  return { error: { code: -32601, message: `no browser connection owns this request's thread; the relay refused ${method.slice(0, 100)}` } };
}
