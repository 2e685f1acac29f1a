// Requests codex answered -32001 "Server overloaded; retry later." retried with backoff and jitter:
// loaded on demand (import()) by the first such answer, so a connection never told it is overloaded
// does not carry it.
import {
  ConnectionClosedError,
  JSON_RPC_OVERLOADED,
  RequestAbortedError,
  ServerError,
  ServerOverloadedError,
  type TransportCloseInfo,
} from "../errors/errors.js";
import { backoffDelay } from "../util/backoff.js";
import { startTimer } from "../util/long-timer.js";
import type { OverloadRetryOptions } from "./overload-retry.js";

/** One request's retries, as its connection sees them. */
export interface OverloadedRequest {
  readonly method: string;
  /** When the request's `timeoutMs` (all retries included) runs out. */
  readonly deadline: number;
  readonly retry: OverloadRetryOptions;
  readonly signal: AbortSignal | undefined;
  /** Sends the request once more, with this much of its time left. */
  send(remainingMs: number): Promise<unknown>;
  /** The connection's backoffs under way: it stops each when it closes. */
  readonly backoffs: Set<(error: unknown) => void>;
  /** How the connection closed, once it has. */
  closeInfo(): TransportCloseInfo | undefined;
}

/**
 * Retries a request answered -32001 (`first`) until it gets another answer, up to
 * `retry.maxRetries` times and within its deadline; then ServerOverloadedError.
 */
export async function retryOverloaded(first: ServerError, request: OverloadedRequest): Promise<unknown> {
  const { method, deadline, retry } = request;
  let error = first;
  for (let attempt = 1; ; attempt++) {
    if (attempt > retry.maxRetries) throw new ServerOverloadedError(method, error.requestId, error.rpcMessage, error.data, attempt);
    const delay = backoffDelay(attempt, retry);
    if (Date.now() + delay >= deadline) throw new ServerOverloadedError(method, error.requestId, error.rpcMessage, error.data, attempt);
    await sleep(delay, request);
    try {
      return await request.send(deadline - Date.now());
    } catch (next) {
      if (!(next instanceof ServerError) || next.rpcCode !== JSON_RPC_OVERLOADED) throw next;
      error = next;
    }
  }
}

/** The backoff before a retry; ends early (rejecting) on abort or when the connection closes. */
function sleep(ms: number, { method, signal, backoffs, closeInfo }: OverloadedRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = closeInfo();
    if (closed) {
      reject(new ConnectionClosedError(closed));
      return;
    }
    // Aborted already (e.g. while this module loaded): no backoff to wait out.
    if (signal?.aborted) {
      reject(new RequestAbortedError(method, undefined, signal.reason));
      return;
    }
    const stop = (error: unknown) => {
      cancelTimer();
      signal?.removeEventListener("abort", onAbort);
      backoffs.delete(stop);
      reject(error);
    };
    const onAbort = () => stop(new RequestAbortedError(method, undefined, signal?.reason));
    const cancelTimer = startTimer(ms, () => {
      signal?.removeEventListener("abort", onAbort);
      backoffs.delete(stop);
      resolve();
    });
    signal?.addEventListener("abort", onAbort, { once: true });
    backoffs.add(stop);
  });
}
