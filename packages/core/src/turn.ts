import type { Observable } from "rxjs";
import type {
  ServerNotification,
  ThreadItem,
  Turn as ProtocolTurn,
  TurnError,
  TurnStartParams,
  TurnStatus,
} from "@codex-rpc/protocol";
import { toAsyncIterable } from "./async-iterable.js";
import { Multicast } from "./multicast.js";
import type { CodexClient } from "./codex-client.js";
import { turnIdOf } from "./notification-routing.js";
import { TurnItemsFold, type TurnItemUpdate } from "./turn-items.js";

/** How a turn ended. */
export interface CompletedTurn {
  readonly id: string;
  readonly status: TurnStatus;
  /** The turn as the server reported it at the end (its own `items` may be empty). */
  readonly turn: ProtocolTurn;
  /** Every item of the turn, folded from started → deltas → completed, in start order. */
  readonly items: readonly ThreadItem[];
  /** What the agent said last: the text of the turn's last agent message. */
  readonly finalText: string;
  readonly error: TurnError | null;
  /** `turn/completed`, or the watchdog (idle thread without `turn/completed`, read back with `thread/read`). */
  readonly completedBy: "turn/completed" | "watchdog";
}

export interface TurnOptions {
  /** Aborting interrupts the turn on the server. */
  readonly signal?: AbortSignal;
  /** More `turn/start` params (model, cwd, approvalPolicy, sandboxPolicy, …). */
  readonly params?: Omit<TurnStartParams, "threadId" | "input">;
  /**
   * After the thread goes idle, how long to wait for `turn/completed` before reading the thread and
   * completing the turn from it (default 3 000 ms).
   */
  readonly watchdogGraceMs?: number;
}

/**
 * One turn: started at once (like a Promise), its notifications routed by thread and turn id.
 *
 * `events$`, `items$` and `text$` are hot: subscribe right after `run()` to see everything (events
 * that arrive before the `turn/start` reply are held until the turn id is known). `completed` holds
 * the outcome regardless. When every subscriber has unsubscribed before the end — or the signal
 * aborts, or a `for await` loop breaks — the turn is interrupted on the server.
 */
export class Turn implements AsyncIterable<ServerNotification> {
  readonly events$: Observable<ServerNotification>;
  readonly items$: Observable<TurnItemUpdate>;
  readonly text$: Observable<string>;
  /** Resolves when the turn ends (any status); rejects if the connection closes first. */
  readonly completed: Promise<CompletedTurn>;
  /** Resolves with the turn id once the server accepted `turn/start`. */
  readonly started: Promise<string>;

  // The three streams share one subscriber count: when the last subscriber leaves early, interrupt.
  private readonly eventSubject = new Multicast<ServerNotification>(this.counting());
  private readonly itemSubject = new Multicast<TurnItemUpdate>(this.counting());
  private readonly textSubject = new Multicast<string>(this.counting());
  private readonly fold = new TurnItemsFold();
  private readonly stopListening: () => void;
  private readonly watchdogGraceMs: number;
  private early: ServerNotification[] | undefined = [];
  private turnId: string | undefined;
  private done = false;
  private subscribers = 0;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private resolveCompleted!: (turn: CompletedTurn) => void;
  private rejectCompleted!: (error: unknown) => void;

  constructor(
    private readonly client: CodexClient,
    readonly threadId: string,
    input: TurnStartParams["input"],
    options: TurnOptions = {},
  ) {
    this.watchdogGraceMs = options.watchdogGraceMs ?? 3_000;
    this.events$ = this.eventSubject.observable;
    this.items$ = this.itemSubject.observable;
    this.text$ = this.textSubject.observable;
    this.completed = new Promise<CompletedTurn>((resolve, reject) => {
      this.resolveCompleted = resolve;
      this.rejectCompleted = reject;
    });
    // Nobody may be awaiting `completed`: a rejection must not become an unhandled one.
    this.completed.catch(() => undefined);

    this.stopListening = client.listenToThread(threadId, {
      notification: (notification) => this.route(notification),
      closed: (error) => this.fail(error),
    });
    // Not aborted by the signal: a turn/start the server may already have acted on must be answered
    // with turn/interrupt once its id is known (the abort handler below waits for it).
    this.started = client.request("turn/start", { ...options.params, threadId, input }).then(
      (response) => {
        this.turnId = response.turn.id;
        const early = this.early ?? [];
        this.early = undefined;
        for (const notification of early) this.route(notification);
        return response.turn.id;
      },
      (error: unknown) => {
        this.fail(error);
        throw error;
      },
    );
    this.started.catch(() => undefined);

    const signal = options.signal;
    if (signal) {
      const onAbort = () => void this.interrupt().catch(() => undefined);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      void this.completed.then(
        () => signal.removeEventListener("abort", onAbort),
        () => signal.removeEventListener("abort", onAbort),
      );
    }
  }

  /** The turn id, once known. */
  get id(): string | undefined {
    return this.turnId;
  }

  /** How many subscribers `events$`, `items$` and `text$` have together now (for leak checks). */
  get subscriberCount(): number {
    return this.eventSubject.subscriberCount + this.itemSubject.subscriberCount + this.textSubject.subscriberCount;
  }

  /** Asks the server to stop the turn; it then completes with status `interrupted`. */
  async interrupt(): Promise<void> {
    if (this.done) return;
    const turnId = await this.started;
    if (this.done) return;
    await this.client.request("turn/interrupt", { threadId: this.threadId, turnId });
  }

  /** `for await (const event of turn)`: this turn's notifications; `break` interrupts the turn. */
  [Symbol.asyncIterator](): AsyncIterator<ServerNotification> {
    const events = toAsyncIterable(this.events$)[Symbol.asyncIterator]();
    return {
      next: async () => {
        const result = await events.next();
        // The events end either way; a turn that failed (connection closed) throws its cause here.
        if (result.done) await this.completed;
        return result;
      },
      return: () => events.return?.() ?? Promise.resolve({ done: true, value: undefined }),
    };
  }

  private route(notification: ServerNotification): void {
    if (this.done) return;
    if (notification.method === "thread/status/changed") {
      this.onThreadStatus(notification.params.status.type);
      return;
    }
    const turnId = turnIdOf(notification.params);
    if (turnId === undefined) return;
    if (this.early) {
      // The turn id is not known yet: keep what could be ours until `turn/start` answers.
      this.early.push(notification);
      return;
    }
    if (turnId !== this.turnId) return;
    const phase = this.fold.apply(notification);
    // Item snapshots are built only for an items$ subscriber (the fold itself just appends text).
    this.eventSubject.next(notification);
    if (phase && this.itemSubject.observed) this.itemSubject.next(this.fold.itemUpdate(phase));
    if (notification.method === "item/agentMessage/delta") this.textSubject.next(notification.params.delta);
    if (notification.method === "turn/completed") this.finish(notification.params.turn, "turn/completed");
  }

  /** Users report a missing `turn/completed`: an idle thread is read back after a grace period. */
  private onThreadStatus(status: string): void {
    clearTimeout(this.watchdog);
    if (status !== "idle" || this.early) return;
    this.watchdog = setTimeout(() => void this.readBack(), this.watchdogGraceMs);
  }

  private async readBack(): Promise<void> {
    if (this.done || !this.turnId) return;
    try {
      const { thread } = await this.client.request("thread/read", { threadId: this.threadId, includeTurns: true });
      const turn = thread.turns.find((candidate) => candidate.id === this.turnId);
      if (turn && turn.status !== "inProgress") this.finish(turn, "watchdog");
    } catch (error) {
      this.fail(error);
    }
  }

  private finish(turn: ProtocolTurn, completedBy: CompletedTurn["completedBy"]): void {
    if (this.done) return;
    // Items the stream never showed (e.g. read back by the watchdog) come from the server's turn.
    for (const item of turn.items) this.fold.record(item);
    this.end();
    this.resolveCompleted({
      id: turn.id,
      status: turn.status,
      turn,
      items: this.fold.list(),
      finalText: this.fold.finalText(),
      error: turn.error,
      completedBy,
    });
    for (const subject of [this.eventSubject, this.itemSubject, this.textSubject]) subject.complete();
  }

  private fail(error: unknown): void {
    if (this.done) return;
    this.end();
    this.rejectCompleted(error);
    // The streams end rather than error: an `error` nobody handles is thrown by RxJS and would
    // crash the program; the cause is in `completed` (and `for await` rethrows it).
    for (const subject of [this.eventSubject, this.itemSubject, this.textSubject]) subject.complete();
  }

  private end(): void {
    this.done = true;
    this.early = undefined;
    clearTimeout(this.watchdog);
    this.stopListening();
  }

  private counting(): { onJoin(): void; onLeave(): void } {
    return {
      onJoin: () => this.subscribers++,
      onLeave: () => {
        this.subscribers--;
        if (this.subscribers === 0 && !this.done) void this.interrupt().catch(() => undefined);
      },
    };
  }
}
