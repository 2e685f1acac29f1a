import { checkTimeout } from "@codex-rpc/core/transport";

export interface HeartbeatOptions {
  /** Send a probe after this long without receiving a frame. Default 30 000 ms; `Infinity`: never. */
  readonly intervalMs?: number;
  /** Give up when nothing at all arrives this long after a probe. Default 10 000 ms. */
  readonly timeoutMs?: number;
}

// 30 s: below the common 60 s idle cut of proxies and load balancers, so the probe also keeps those
// paths open; one probe per half-minute of silence costs nothing. 10 s: codex answers a probe in a
// few ms, even while a command runs, so only a dead or frozen peer misses it.
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;
export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 10_000;

/** Validates the option up front, so a misspelt value fails `openWebSocketTransport`, not a timer. */
export function resolveHeartbeat(option: HeartbeatOptions | false | undefined): Required<HeartbeatOptions> | undefined {
  if (option === false) return undefined;
  const intervalMs = option?.intervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
  const timeoutMs = option?.timeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS;
  checkTimeout(intervalMs, "heartbeat.intervalMs");
  checkTimeout(timeoutMs, "heartbeat.timeoutMs");
  if (!(intervalMs > 0) || !(timeoutMs > 0)) throw new RangeError(`heartbeat intervalMs and timeoutMs must be above 0, got ${intervalMs} and ${timeoutMs}`);
  return intervalMs === Infinity ? undefined : { intervalMs, timeoutMs };
}
