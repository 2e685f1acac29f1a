import { JSON_RPC_METHOD_NOT_FOUND } from "../errors/errors.js";
import type { JsonRpcRequest } from "../framing/json-rpc-message.js";
import { JsonRpcReplyError, type JsonRpcConnection, type ServerRequestContext } from "../rpc/json-rpc-connection.js";
import { answerByPolicy } from "./approval-answer.js";
import { isApprovalMethod, type ApprovalPolicy } from "./approval-response.js";
import { refreshChatgptAuthTokens, type UntypedTokenRefreshHandler } from "./auth-token-refresh.js";
import { answerElicitation, type UntypedElicitationHandler } from "./mcp-elicitation.js";
import { unhandledRequestMessage } from "./server-request-hints.js";
import type { UntypedUserInputHandler } from "./user-input.js";
import { answerUserInput } from "./user-input-answer.js";

/** The options that answer one kind of server request each (untyped here; CodexClientOptions types them). */
export interface ServerRequestAnswerers {
  readonly elicitations?: UntypedElicitationHandler | undefined;
  readonly userInput?: UntypedUserInputHandler | undefined;
  readonly refreshChatgptAuthTokens?: UntypedTokenRefreshHandler | undefined;
}

/**
 * The client's own answers to server requests no registered handler took (see
 * SERVER_REQUEST_DEFAULTS): the approval policy, the `elicitations`, `userInput` and
 * `refreshChatgptAuthTokens` options; else -32601 and an `unhandled-server-request` diagnostic.
 * Loaded on demand (`import()`) by the dispatcher when the first such request arrives, so a page
 * that never gets one does not carry it.
 */
export function answerByDefault(
  connection: JsonRpcConnection,
  approvals: ApprovalPolicy,
  answerers: ServerRequestAnswerers,
  request: JsonRpcRequest,
  context: ServerRequestContext,
): unknown {
  const { method, params } = request;
  if (method === "mcpServer/elicitation/request") return answerElicitation(approvals, answerers.elicitations, params, context);
  if (isApprovalMethod(method)) return answerByPolicy(approvals, method, params, context.signal);
  if (method === "item/tool/requestUserInput") return answerUserInput(answerers.userInput, params, context);
  if (method === "account/chatgptAuthTokens/refresh" && answerers.refreshChatgptAuthTokens) {
    return refreshChatgptAuthTokens(answerers.refreshChatgptAuthTokens, params, context);
  }
  connection.report({ kind: "unhandled-server-request", message: unhandledRequestMessage(method) });
  throw new JsonRpcReplyError(JSON_RPC_METHOD_NOT_FOUND, `Method not found: ${method} (no handler registered in this client)`);
}
