import type { JsonRpcId } from "@codex-rpc/core/transport";

/**
 * Requests that name an earlier request of the same connection by its JSON-RPC id (`requestId`),
 * and the methods that earlier request may have: `thread/sample/cancel` ends a `thread/sample`
 * (measured on codex 0.169.0: -32603 "sample canceled"; an id codex does not know is answered `{}`),
 * `userVerification/cancel` a native verification request. The relay rewrites request ids upstream,
 * so it rewrites `requestId` too (see requestIdUpstream).
 */
const CANCELS: ReadonlyMap<string, (method: string) => boolean> = new Map([
  ["thread/sample/cancel", (method: string) => method === "thread/sample"],
  ["userVerification/cancel", (method: string) => method.startsWith("userVerification/") && method !== "userVerification/cancel"],
]);

/** An earlier request of the connection, as the relay sent it upstream. */
export interface SentRequest {
  readonly pageId: JsonRpcId;
  readonly method: string;
  readonly upstreamId: number;
}

/**
 * `params` of a cancelling request with `requestId` put upstream: the upstream id of the
 * connection's own pending request the page named, or — when it names none — a string no upstream
 * request has (the relay's own ids are numbers), so that a page can never cancel another's request
 * by guessing the relay's ids. Other requests' params are returned as they are.
 */
export function requestIdUpstream(method: string, params: unknown, connection: number, ownPending: Iterable<SentRequest>): unknown {
  const accepts = CANCELS.get(method);
  if (accepts === undefined || typeof params !== "object" || params === null || Array.isArray(params)) return params;
  const record = params as Record<string, unknown>;
  const named = record.requestId;
  if (typeof named !== "string" && typeof named !== "number") return params;
  let upstream: JsonRpcId = `r${connection}.${String(named)}`;
  for (const sent of ownPending) if (sent.pageId === named && accepts(sent.method)) upstream = sent.upstreamId;
  return { ...record, requestId: upstream };
}
