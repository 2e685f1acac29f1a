import { describe, expect, it } from "vitest";
import { RequestAbortedError } from "@codex-rpc/core";
import { paginate } from "../../src/session/paginate.js";

/** A host serving `pages` (cursor → page), recording every call; its modules load at once. */
function serve(pages: Record<string, unknown>) {
  const calls: { method: string; params: { cursor?: unknown; limit?: unknown }; signal?: AbortSignal }[] = [];
  const request = async (method: string, params: unknown, options?: { signal?: AbortSignal }) => {
    calls.push({ method, params: params as { cursor?: unknown }, ...(options?.signal ? { signal: options.signal } : {}) });
    if (options?.signal?.aborted) throw new RequestAbortedError(method, undefined, options.signal.reason);
    return pages[String((params as { cursor?: unknown }).cursor ?? "")];
  };
  return { calls, host: { request, load: <M>(_method: string, load: Promise<M>) => load } };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const entry of iterable) all.push(entry);
  return all;
}

describe("paginate", () => {
  const pages = {
    "": { data: [1, 2], nextCursor: "b" },
    b: { data: [3, 4], nextCursor: "c" },
    c: { data: [5], nextCursor: null },
  };

  it("yields every entry, following nextCursor until it is null, with the caller's params on every page", async () => {
    const { calls, host } = serve(pages);
    expect(await collect(paginate<number>("x/list", { limit: 2, threadId: "t" }, host))).toEqual([1, 2, 3, 4, 5]);
    expect(calls.map((call) => call.params)).toEqual([
      { limit: 2, threadId: "t", cursor: undefined },
      { limit: 2, threadId: "t", cursor: "b" },
      { limit: 2, threadId: "t", cursor: "c" },
    ]);
  });

  it("is lazy: nothing is fetched before the loop asks, and a break fetches no further page", async () => {
    const { calls, host } = serve(pages);
    const listing = paginate<number>("x/list", {}, host);
    expect(calls).toHaveLength(0);
    for await (const entry of listing) {
      expect(entry).toBe(1);
      break;
    }
    expect(calls).toHaveLength(1);
    // Each loop starts over from the first page.
    expect(await collect(listing)).toHaveLength(5);
  });

  it("starts from the cursor given in params", async () => {
    const { host } = serve(pages);
    expect(await collect(paginate<number>("x/list", { cursor: "c" }, host))).toEqual([5]);
  });

  it("passes the signal to every page request: aborting stops the loop with RequestAbortedError", async () => {
    const { calls, host } = serve(pages);
    const controller = new AbortController();
    const seen: number[] = [];
    const loop = (async () => {
      for await (const entry of paginate<number>("x/list", {}, host, { signal: controller.signal })) {
        seen.push(entry);
        controller.abort();
      }
    })();
    await expect(loop).rejects.toBeInstanceOf(RequestAbortedError);
    expect(seen).toEqual([1, 2]);
    expect(calls.every((call) => call.signal === controller.signal)).toBe(true);
  });

  it("a reply without a data array, or a cursor the server returned before, is a ProtocolError (never an endless loop)", async () => {
    await expect(collect(paginate("x/list", {}, serve({ "": { items: [] } }).host))).rejects.toMatchObject({ code: "PROTOCOL_ERROR" });
    await expect(collect(paginate("x/list", {}, serve({ "": null }).host))).rejects.toMatchObject({ code: "PROTOCOL_ERROR" });
    const looping = serve({ "": { data: [1], nextCursor: "a" }, a: { data: [2], nextCursor: "a" } });
    await expect(collect(paginate("x/list", {}, looping.host))).rejects.toMatchObject({ code: "PROTOCOL_ERROR", method: "x/list" });
    expect(looping.calls).toHaveLength(2);
  });

  it("with distinctBy, skips an entry whose key it yielded before, across pages", async () => {
    const { host } = serve({ "": { data: [{ id: "a" }, { id: "b" }], nextCursor: "2" }, "2": { data: [{ id: "a" }, { id: "c" }], nextCursor: null } });
    const listing = paginate<{ id: string }>("x/list", {}, host, { distinctBy: (entry) => (entry as { id: string }).id });
    expect((await collect(listing)).map((entry) => entry.id)).toEqual(["a", "b", "c"]);
  });
});
