import { describeValue, isPlainObject, wholeAbove0 } from "./limits.js";

/** How much a connection may send before its app-server session is ready (isolation "process" starts one per connection). */
export interface StartupQueueLimits {
  /** Messages (default 200, the rate limit's default burst). */
  readonly messages?: number;
  /** Their bytes together (default 16 MiB). */
  readonly bytes?: number;
}

export const DEFAULT_STARTUP_QUEUE = { messages: 200, bytes: 16 * 1024 * 1024 } as const;

/**
 * Counts what a connection sends while its app-server session opens (the rate limit only applies
 * once it is open): `admit` says false once the count or the bytes go over the limits, and the
 * relay closes the connection. Everything is admitted once the session is open.
 */
export class StartupQueue {
  #open = false;
  #messages = 0;
  #bytes = 0;
  readonly #limits: Required<StartupQueueLimits>;

  constructor(limits: StartupQueueLimits = {}) {
    // A plain object of the two limits (a string or an array would spread into numbered keys).
    if (!isPlainObject(limits)) {
      throw new TypeError(`startRelay: maxQueuedWhileStarting must be { messages, bytes }, not ${describeValue(limits)}`);
    }
    const { messages, bytes } = { ...DEFAULT_STARTUP_QUEUE, ...limits };
    this.#limits = {
      messages: wholeAbove0("startRelay", "maxQueuedWhileStarting.messages", messages),
      bytes: wholeAbove0("startRelay", "maxQueuedWhileStarting.bytes", bytes),
    };
  }

  /** Whether a message of `bytes` may wait for the session. */
  admit(bytes: number): boolean {
    if (this.#open) return true;
    this.#messages++;
    this.#bytes += bytes;
    return this.#messages <= this.#limits.messages && this.#bytes <= this.#limits.bytes;
  }

  /** The session is open: what waited is handed over, and nothing is counted any more. */
  open(): void {
    this.#open = true;
  }
}
