import type { Thread as ProtocolThread } from "@codex-rpc/protocol";
import type { TransportCloseInfo } from "../errors/errors.js";
import type { Transport } from "../transport/transport.js";
import { backoffDelay } from "../util/backoff.js";
import { startTimer } from "../util/long-timer.js";
import type { Reconnection, ReconnectOptions, ResumedThread, TransportFactory } from "./reconnect-policy.js";

/** What a reconnect attempt does with the client it reconnects. */
export interface ReconnectSteps {
  /** Whether `close()` was called: no attempt starts after it. */
  closeRequested(): boolean;
  readonly openTransport: TransportFactory;
  /** Puts a new connection over the transport and runs the handshake on it. */
  connect(transport: Transport): Promise<void>;
  /** Closes the connection a failed attempt opened, with how it ended. */
  closeConnection(): Promise<TransportCloseInfo>;
  /** The threads the client has open, with their approval policy: each is resumed (`thread/resume`). */
  readonly openThreads: ReadonlyMap<string, unknown>;
  /** Sends a request on the new connection. */
  request(method: string, params: unknown): Promise<unknown>;
}

/** Either how the reconnection went, or how the last connection ended when the client gave up. */
export type ReconnectOutcome = { readonly reconnected: Reconnection } | { readonly gaveUp: TransportCloseInfo };

/**
 * The reconnect loop of a client given a TransportFactory and `reconnect`: backoff with jitter, a
 * budget of attempts that a connection must stay up `stableAfterMs` to renew, a handshake and the
 * open threads resumed on each new connection.
 */
export class Reconnector {
  /** Reconnect attempts spent since the connection last stayed up for `stableAfterMs`. */
  #attempts = 0;
  /** When the last reconnect succeeded. */
  #reconnectedAt: number | undefined;
  /** Set when the connection a reconnect attempt opened drops before the attempt is done. */
  #droppedDuringReconnect: TransportCloseInfo | undefined;
  /** Wakes a reconnect backoff when close() is called. */
  #wakeBackoff: (() => void) | undefined;

  constructor(
    private readonly policy: Required<ReconnectOptions>,
    private readonly steps: ReconnectSteps,
  ) {}

  /** The connection an attempt under way opened dropped: the attempt sees it and tries again. */
  droppedDuringAttempt(info: TransportCloseInfo): void {
    this.#droppedDuringReconnect = info;
  }

  /** Ends a backoff wait at once (close() was called). */
  wake(): void {
    this.#wakeBackoff?.();
  }

  /** Reconnects after `cause` (noticed at `disconnectedAt`), or gives up once the budget is spent or close() is called. */
  async run(cause: TransportCloseInfo, disconnectedAt: number): Promise<ReconnectOutcome> {
    const { policy, steps } = this;
    // A connection that drops soon after a reconnect did not recover: the attempts spent on it
    // still count, so a server that accepts and then drops cannot keep the client reconnecting.
    const recovered = this.#reconnectedAt === undefined || disconnectedAt - this.#reconnectedAt >= policy.stableAfterMs;
    if (recovered) this.#attempts = 0;
    let lastClose = cause;
    for (let attempt = 1; this.#attempts < policy.maxAttempts && !steps.closeRequested(); attempt++) {
      this.#attempts++;
      await this.#backoff(backoffDelay(this.#attempts, policy));
      if (steps.closeRequested()) break;
      this.#droppedDuringReconnect = undefined;
      let transport: Transport | undefined;
      try {
        transport = await steps.openTransport();
        if (steps.closeRequested()) {
          await transport.close();
          break;
        }
        await steps.connect(transport);
      } catch (error) {
        lastClose = transport ? await steps.closeConnection() : { reason: "error", error };
        continue;
      }
      const threads = await this.#resumeOpenThreads();
      if (this.#droppedDuringReconnect) {
        lastClose = this.#droppedDuringReconnect;
        continue;
      }
      this.#reconnectedAt = Date.now();
      return { reconnected: { cause, attempts: attempt, disconnectedAt, reconnectedAt: Date.now(), threads } };
    }
    return { gaveUp: lastClose };
  }

  async #resumeOpenThreads(): Promise<ResumedThread[]> {
    const resumed: ResumedThread[] = [];
    for (const [threadId, approvalPolicy] of this.steps.openThreads) {
      try {
        const { thread } = (await this.steps.request("thread/resume", { threadId, approvalPolicy })) as { thread: ProtocolThread };
        resumed.push({ threadId, resumed: true, thread });
      } catch (error) {
        resumed.push({ threadId, resumed: false, error: error instanceof Error ? error : new Error(String(error)) });
      }
    }
    return resumed;
  }

  #backoff(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = startTimer(ms, done);
      function done(): void {
        cancel();
        resolve();
      }
      this.#wakeBackoff = done;
    });
  }
}
