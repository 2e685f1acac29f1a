// The heartbeat at work: loaded on demand (import()) once the socket is open, so a page carries only
// the option's checks (heartbeat.ts) in its first load; the first probe is due 30 s after that.
import type { CancelTimer, startTimer } from "@codex-rpc/core/transport";
import type { HeartbeatOptions } from "./heartbeat.js";

/** The id prefix of probe requests; a response carrying it is a probe's answer. */
export const HEARTBEAT_ID_PREFIX = "codex-rpc-heartbeat-";
export const HEARTBEAT_METHOD = "codex-rpc/heartbeat";

/**
 * Notices a peer that stopped answering. Any received frame counts as life; after `intervalMs`
 * without one it sends a probe (a request codex always answers, if only with an error), and if
 * nothing arrives within `timeoutMs` after that, it calls `onDead`. Per frame it only stores a
 * timestamp and a count: no timer is touched on the hot path.
 */
export class Heartbeat {
  readonly #options: Required<HeartbeatOptions>;
  readonly #sendProbe: (text: string) => void;
  readonly #onDead: (error: Error) => void;
  readonly #startTimer: typeof startTimer;
  #lastFrameAt = performance.now();
  #frames = 0;
  #probes = 0;
  #cancel: CancelTimer | undefined;
  /** Ids of probes sent and not yet answered: only their answers are the heartbeat's. */
  readonly #outstanding = new Set<string>();

  /** `timer`: core's startTimer, handed over by the transport (no static import of core here: see #startHeartbeat there). */
  constructor(options: Required<HeartbeatOptions>, sendProbe: (text: string) => void, onDead: (error: Error) => void, timer: typeof startTimer) {
    this.#options = options;
    this.#startTimer = timer;
    this.#sendProbe = sendProbe;
    this.#onDead = onDead;
  }

  start(): void {
    this.#lastFrameAt = performance.now();
    this.#wait(this.#options.intervalMs);
  }

  frameReceived(): void {
    this.#lastFrameAt = performance.now();
    this.#frames++;
  }

  /**
   * Takes the answer to one of its own probes (exactly an id it sent and has not seen answered),
   * and says whether it did; anything else, even with the same prefix, is the connection's.
   */
  takeReply(message: { readonly id?: unknown; readonly method?: unknown }): boolean {
    if (typeof message.id !== "string" || message.method !== undefined || !this.#outstanding.delete(message.id)) return false;
    this.#probeAnswered();
    return true;
  }

  /** A probe's answer came: the next one is due `intervalMs` from now, not when the deadline passes. */
  #probeAnswered(): void {
    if (this.#cancel === undefined) return;
    this.stop();
    this.#wait(this.#options.intervalMs);
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #wait(ms: number): void {
    this.#cancel = this.#startTimer(ms, () => this.#check());
  }

  #check(): void {
    const idle = performance.now() - this.#lastFrameAt;
    if (idle < this.#options.intervalMs) return this.#wait(this.#options.intervalMs - idle);
    const framesBefore = this.#frames;
    const id = `${HEARTBEAT_ID_PREFIX}${++this.#probes}`;
    this.#outstanding.add(id);
    if (this.#outstanding.size > MAX_OUTSTANDING_PROBES) this.#outstanding.delete(this.#outstanding.values().next().value as string);
    try {
      this.#sendProbe(JSON.stringify({ id, method: HEARTBEAT_METHOD }));
    } catch (error) {
      return this.#onDead(new Error(`heartbeat: could not send a probe: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
    }
    this.#cancel = this.#startTimer(this.#options.timeoutMs, () => {
      if (this.#frames !== framesBefore) return this.#check();
      const { intervalMs, timeoutMs } = this.#options;
      this.#onDead(
        new Error(
          `heartbeat timed out: nothing received for ${Math.round(idle) + timeoutMs} ms (a probe after ${intervalMs} ms of silence got no answer within ${timeoutMs} ms)`,
        ),
      );
    });
  }
}

/** Probes whose answers are still expected; older ones are forgotten (their late answers become unknown-response diagnostics). */
const MAX_OUTSTANDING_PROBES = 16;
