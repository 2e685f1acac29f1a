import type { DefaultProtocolTypes, ParamsIn, ProtocolTypesShape, ResultIn } from "../rpc/protocol-types.js";
import { isRecord } from "../util/is-record.js";
import type { ApiHost } from "./api-host.js";

/** `model/list`'s params in the client's protocol (`cursor` is followed for you). */
export type ModelListOptions<T extends ProtocolTypesShape = DefaultProtocolTypes> = Exclude<ParamsIn<T["clientRequests"], "model/list">, undefined>;
/** One model of `model/list` in the client's protocol. */
export type ModelOf<T extends ProtocolTypesShape> = ResultIn<T["clientRequests"], "model/list"> extends { data: ReadonlyArray<infer M> } ? M : never;

/**
 * Every model codex offers (`model/list`), page after page (`limit` sets the page size) until
 * `nextCursor` is null. Pages are requested as the loop reads; `break` stops asking.
 */
export async function* listModels<T extends ProtocolTypesShape>(
  host: ApiHost,
  options: ModelListOptions<T> = {} as ModelListOptions<T>,
): AsyncGenerator<ModelOf<T>, void, undefined> {
  let cursor = (options as { cursor?: string | null }).cursor ?? null;
  const seen = new Set<string>();
  for (;;) {
    const page = await host.request("model/list", { ...(options as object), cursor });
    if (!isRecord(page)) return;
    if (Array.isArray(page.data)) yield* page.data as ModelOf<T>[];
    const next = page.nextCursor;
    // A cursor seen before would loop for ever: stop at it.
    if (typeof next !== "string" || seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}
