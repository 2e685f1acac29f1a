import type { IncomingMessage } from "node:http";
import { originAllowed } from "./origin-policy.js";
import { tokenFromSubprotocols, tokenMatches } from "./token.js";

/** Why an upgrade request is refused: the HTTP status and a short text for the body and the log. */
export interface Refusal {
  readonly status: 400 | 401 | 403 | 404;
  readonly reason: string;
}

/** The path browsers connect to, and the discovery document's path. */
export const RELAY_PATH = "/";
export { RELAY_DISCOVERY_PATH as DISCOVERY_PATH } from "@codex-rpc/websocket";

/**
 * Checks a WebSocket upgrade request before anything is upgraded, in this order: the `Origin`
 * (a foreign one: 403), the URL (a query naming a token, or holding the token itself, or any
 * query at all: 400; the token belongs in a subprotocol, not in a URL that ends up in logs and
 * history), then the token
 * among the offered subprotocols (missing or wrong: 401; compared in constant time).
 */
export function checkUpgrade(request: IncomingMessage, allowedOrigins: ReadonlySet<string>, token: string): Refusal | undefined {
  if (!originAllowed(request.headers.origin, allowedOrigins)) return { status: 403, reason: "origin not allowed" };
  const url = requestUrl(request);
  if (!url) return { status: 400, reason: "not a request path" };
  if (url.searchParams.has("token") || [...url.searchParams.values()].some((value) => value.includes(token)) || decoded(url.pathname).includes(token)) {
    return { status: 400, reason: "a token in the URL is refused: present it as the WebSocket subprotocol codex-rpc.token.<token>" };
  }
  if (url.search !== "") return { status: 400, reason: "the relay takes no query parameters" };
  if (url.pathname !== RELAY_PATH) return { status: 404, reason: "not found" };
  const protocols = (request.headers["sec-websocket-protocol"] ?? "").split(",").map((entry) => entry.trim());
  const presented = tokenFromSubprotocols(protocols);
  // Not "no token: present it…": the log's secret redactor takes `token: <word>` for a credential.
  if (presented === undefined) return { status: 401, reason: "no token (present it as the WebSocket subprotocol codex-rpc.token.<token>)" };
  if (!tokenMatches(presented, token)) return { status: 401, reason: "wrong token" };
  return undefined;
}

/** A path with its percent-escapes decoded (as it is when malformed: then it holds no escaped token). */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The request's path and query as a URL, or undefined when it cannot be one (`//[`). */
export function requestUrl(request: IncomingMessage): URL | undefined {
  try {
    return new URL(request.url ?? "/", "http://relay");
  } catch {
    return undefined;
  }
}
