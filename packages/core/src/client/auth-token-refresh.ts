import type { ChatgptAuthTokensRefreshResponse } from "@codex-rpc/protocol";
import { InvalidHandlerResultError } from "../errors/errors.js";
import type { ServerRequestContext } from "../rpc/json-rpc-connection.js";
import { isRecord } from "../util/is-record.js";

const METHOD = "account/chatgptAuthTokens/refresh";

/** The `refreshChatgptAuthTokens` option as the dispatcher keeps it: untyped (the client's options type it by protocol). */
export type UntypedTokenRefreshHandler = (params: unknown, context: ServerRequestContext) => unknown;

/**
 * Answers `account/chatgptAuthTokens/refresh` (codex got 401 with the ChatGPT tokens this client
 * gave it) with the hook's fresh tokens. Throws InvalidHandlerResultError unless they are
 * `{ accessToken, chatgptAccountId, chatgptPlanType? }` strings; the message never holds a token.
 */
export async function refreshChatgptAuthTokens(
  handler: UntypedTokenRefreshHandler,
  params: unknown,
  context: ServerRequestContext,
): Promise<ChatgptAuthTokensRefreshResponse> {
  const tokens = await handler(params, context);
  const fail = (detail: string): never => {
    throw new InvalidHandlerResultError(METHOD, detail);
  };
  if (!isRecord(tokens)) return fail("the token refresh hook must return { accessToken, chatgptAccountId, chatgptPlanType? }");
  if (typeof tokens.accessToken !== "string" || tokens.accessToken === "") fail("accessToken must be a non-empty string");
  if (typeof tokens.chatgptAccountId !== "string") fail("chatgptAccountId must be a string");
  const plan = tokens.chatgptPlanType;
  if (plan !== undefined && plan !== null && typeof plan !== "string") fail("chatgptPlanType must be a string, null or left out");
  return tokens as ChatgptAuthTokensRefreshResponse;
}
