import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectionClosedError, RequestAbortedError, RequestTimeoutError } from "../../src/errors/errors.js";
import { loadWithin } from "../../src/rpc/load-within.js";

const never = () => new Promise<never>(() => {});

/** An AbortSignal that tracks the abort listeners added to it and not removed. */
function countedSignal() {
  const controller = new AbortController();
  const listening = new Set<unknown>();
  const add = controller.signal.addEventListener.bind(controller.signal);
  const remove = controller.signal.removeEventListener.bind(controller.signal);
  controller.signal.addEventListener = ((...args: Parameters<typeof add>) => (listening.add(args[1]), add(...args))) as typeof add;
  controller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => (listening.delete(args[1]), remove(...args))) as typeof remove;
  return { controller, signal: controller.signal, listeners: () => listening.size };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("loadWithin: a module load raced against a call's deadline, signal and close", () => {
  it("settles as the load does when it comes in time, and leaves no timer, listener or wait behind", async () => {
    vi.useFakeTimers();
    const { signal, listeners } = countedSignal();
    const waits = new Set<(error: unknown) => void>();
    expect(await loadWithin(Promise.resolve({ loaded: true }), "fs/readFile", 1_000, signal, waits)).toEqual({ loaded: true });
    const failure = new Error("chunk failed");
    await expect(loadWithin(Promise.reject(failure), "fs/readFile", 1_000, signal, waits)).rejects.toBe(failure);
    expect([vi.getTimerCount(), listeners(), waits.size]).toEqual([0, 0, 0]);
  });

  it("rejects with RequestTimeoutError (method, timeoutMs, no id) when the time left runs out, and cleans up", async () => {
    vi.useFakeTimers();
    const { signal, listeners } = countedSignal();
    const waits = new Set<(error: unknown) => void>();
    const loading = loadWithin(never(), "thread/list", 100, signal, waits, 40).catch((error: unknown) => error);
    expect([vi.getTimerCount(), listeners(), waits.size]).toEqual([1, 1, 1]);
    await vi.advanceTimersByTimeAsync(40);
    const error = await loading;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ method: "thread/list", timeoutMs: 100, requestId: undefined, message: "thread/list got no reply within 100 ms" });
    expect([vi.getTimerCount(), listeners(), waits.size]).toEqual([0, 0, 0]);
  });

  it("rejects with RequestAbortedError when the signal aborts (at once if it already has), and cleans up", async () => {
    vi.useFakeTimers();
    const { controller, signal, listeners } = countedSignal();
    const loading = loadWithin(never(), "command/exec", 1_000, signal);
    controller.abort("stop");
    await expect(loading).rejects.toMatchObject({ code: "REQUEST_ABORTED", method: "command/exec", reason: "stop" });
    await expect(loadWithin(never(), "command/exec", 1_000, signal)).rejects.toBeInstanceOf(RequestAbortedError);
    expect([vi.getTimerCount(), listeners()]).toEqual([0, 0]);
  });

  it("rejects with what a wait is stopped with (the connection's close)", async () => {
    const waits = new Set<(error: unknown) => void>();
    const loading = loadWithin(never(), "thread/read", Infinity, undefined, waits);
    const closed = new ConnectionClosedError({ reason: "closed" });
    for (const stop of waits) stop(closed);
    await expect(loading).rejects.toBe(closed);
    expect(waits.size).toBe(0);
  });

  it("ignores a load that completes after it gave up: what is chained on the result never runs", async () => {
    let arrive!: (module: { run(): void }) => void;
    const late = new Promise<{ run(): void }>((resolve) => (arrive = resolve));
    const run = vi.fn();
    const chained = loadWithin(late, "command/exec", 5).then((module) => module.run());
    await expect(chained).rejects.toBeInstanceOf(RequestTimeoutError);
    arrive({ run });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(run).not.toHaveBeenCalled();
  });

  it("Infinity starts no timer: nothing keeps a Node process alive while it waits", () => {
    const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const before = timeouts();
    void loadWithin(never(), "fs/readFile", Infinity);
    expect(timeouts()).toBe(before);
  });
});
