import type { Thread as ProtocolThread } from "@codex-rpc/protocol";
import type { BackoffOptions } from "../util/backoff.js";
import type { CodexRpcError, TransportCloseInfo } from "../errors/errors.js";
import type { Transport } from "../transport/transport.js";

/** Opens a fresh transport to the same server: what a client that reconnects is given. */
export type TransportFactory = () => Promise<Transport>;

/** How a client given a TransportFactory reconnects after the connection drops. */
export interface ReconnectOptions extends Partial<BackoffOptions> {
  /** Attempts after a drop before the client gives up and closes (default 10). Delays default to 250 ms doubling up to 10 000 ms. */
  readonly maxAttempts?: number;
  /**
   * How long a new connection must stay up before a later drop starts a fresh budget of
   * `maxAttempts` (default 5 000 ms). A server that completes the handshake and drops soon after
   * uses up the same budget, so the client gives up instead of reconnecting for ever.
   */
  readonly stableAfterMs?: number;
}

/** @throws RangeError for a budget or delay no loop can honour (NaN, negative, a fractional attempt count). */
export function resolveReconnect(options: ReconnectOptions): Required<ReconnectOptions> {
  const { maxAttempts, initialDelayMs, maxDelayMs, stableAfterMs } = options;
  if (maxAttempts !== undefined && !(Number.isInteger(maxAttempts) && maxAttempts >= 0) && maxAttempts !== Infinity) {
    throw new RangeError(`reconnect.maxAttempts must be a whole number of attempts or Infinity, got ${String(maxAttempts)}`);
  }
  for (const [name, value] of [
    ["initialDelayMs", initialDelayMs],
    ["maxDelayMs", maxDelayMs],
    ["stableAfterMs", stableAfterMs],
  ] as const) {
    if (value !== undefined && !(value >= 0)) throw new RangeError(`reconnect.${name} must be a number of milliseconds ≥ 0, got ${String(value)}`);
  }
  return {
    maxAttempts: options.maxAttempts ?? 10,
    stableAfterMs: options.stableAfterMs ?? 5_000,
    initialDelayMs: options.initialDelayMs ?? 250,
    maxDelayMs: options.maxDelayMs ?? 10_000,
    random: options.random ?? Math.random,
  };
}

/**
 * What happened across one reconnection. Nothing the server sent between `disconnectedAt` and
 * `reconnectedAt` was received: turns that were running at the cut rejected with
 * ConnectionClosedError, and each thread's state after the gap is in `threads`.
 */
export interface Reconnection {
  /** How the previous connection ended. */
  readonly cause: TransportCloseInfo;
  /** How many attempts it took (1 = the first). */
  readonly attempts: number;
  /** `Date.now()` when the drop was noticed and when the new connection was ready. */
  readonly disconnectedAt: number;
  readonly reconnectedAt: number;
  /** Every thread this client had started or resumed, resumed again (`thread/resume`), in order. */
  readonly threads: readonly ResumedThread[];
}

export type ResumedThread =
  | { readonly threadId: string; readonly resumed: true; readonly thread: ProtocolThread }
  | { readonly threadId: string; readonly resumed: false; readonly error: CodexRpcError | Error };
