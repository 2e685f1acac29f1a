import type { DefaultProtocolTypes, ParamsIn, ProtocolTypesShape, ResultIn } from "../rpc/protocol-types.js";
import { paginate, type ListOptions } from "../session/paginate.js";
import type { ApiHost } from "./api-host.js";

/** `model/list`'s params in the client's protocol (`cursor` is followed for you). */
export type ModelListOptions<T extends ProtocolTypesShape = DefaultProtocolTypes> = Exclude<ParamsIn<T["clientRequests"], "model/list">, undefined>;
/** One model of `model/list` in the client's protocol. */
export type ModelOf<T extends ProtocolTypesShape> = ResultIn<T["clientRequests"], "model/list"> extends { data: ReadonlyArray<infer M> } ? M : never;

/**
 * Every model codex offers (`model/list`), page after page (`limit` sets the page size) until
 * `nextCursor` is null, through the same paging as the thread listings: pages are requested as
 * the loop reads, `break` stops asking, `signal` aborts, a malformed page or a repeated cursor is a
 * ProtocolError.
 */
export function listModels<T extends ProtocolTypesShape>(
  host: ApiHost,
  params: ModelListOptions<T> = {} as ModelListOptions<T>,
  options?: ListOptions,
): AsyncIterable<ModelOf<T>> {
  return paginate<ModelOf<T>>("model/list", params as object, host, options);
}
