import { JSON_RPC_METHOD_NOT_FOUND } from "../errors/errors.js";
import { JsonRpcReplyError } from "../rpc/json-rpc-connection.js";

/**
 * How long a server request waits for the client's default answers to load before it is answered
 * as if they had failed to: codex waits for every answer (a turn asking for an approval waits with
 * it), and a chunk that normally arrives in well under a second may never arrive at all.
 */
export const ANSWERS_LOAD_BOUND_MS = 10_000;

/** The safe answer of each request the client answers by default: decline, no answer. */
const DECLINED: Readonly<Record<string, unknown>> = {
  "item/commandExecution/requestApproval": { decision: "decline" },
  "item/fileChange/requestApproval": { decision: "decline" },
  "item/permissions/requestApproval": { permissions: {}, scope: "turn" },
  execCommandApproval: { decision: { denied: { rejection: "Declined by the client." } } },
  applyPatchApproval: { decision: { denied: { rejection: "Declined by the client." } } },
  "mcpServer/elicitation/request": { action: "decline" },
  "item/tool/requestUserInput": { answers: {} },
};

/**
 * What a server request gets when the client's default answers (server-request-answers, loaded on
 * demand) could not be loaded, e.g. a page whose chunk failed to download: the request is still
 * answered, declined where a decline exists, else -32601.
 */
export function fallbackAnswer(method: string): unknown {
  if (Object.hasOwn(DECLINED, method)) return DECLINED[method];
  throw new JsonRpcReplyError(JSON_RPC_METHOD_NOT_FOUND, `Method not found: ${method} (the client's default answers could not be loaded)`);
}
