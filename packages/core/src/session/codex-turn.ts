import type { Observable } from "rxjs";
import type { ServerNotification, Turn as ProtocolTurn, TurnError, TurnStartParams, TurnStatus } from "@codex-rpc/protocol";
import { toAsyncIterable } from "./async-iterable.js";
import { describeThrown, excerptOf } from "../util/describe-value.js";
import { InvalidOptionError, ProtocolError, RequestAbortedError, RequestTimeoutError, TurnTimeoutError } from "../errors/errors.js";
import type { OutputValidationError } from "../errors/output-validation-error.js";
import { ThreadBusyError, TurnNotRunningError } from "../errors/turn-errors.js";
import { checkTimeout, startTimer, type CancelTimer } from "../util/long-timer.js";
import { Multicast } from "../util/multicast.js";
import type {
  DefaultProtocolTypes,
  ParamsIn,
  ProtocolTypesShape,
  ResultIn,
  ServerNotificationOf,
  ThreadItemOf,
  TokenUsageOf,
  TurnInfoOf,
  TurnStartParamsOf,
  UserInputOf,
} from "../rpc/protocol-types.js";
import { turnIdOf } from "./notification-routing.js";
import type { SessionHost } from "./session-host.js";
import { TurnItemsFold, type TurnItemUpdate } from "./turn-items.js";
import type { TurnJournal } from "./turn-journal.js";
import { enqueueTurn, pendingTurns } from "./turn-queue.js";
import { prepareOutputSchema, type OutputSchema, type PreparedOutputSchema } from "./structured-output.js";
import { steerTurn, userInputOf } from "./turn-steer.js";

/** How a turn ended. */
export interface CompletedTurn<T extends ProtocolTypesShape = DefaultProtocolTypes, O = undefined> {
  readonly id: string;
  readonly status: TurnInfoOf<T> extends { status: infer S } ? S : TurnStatus;
  /** The turn as the server reported it at the end (its own `items` may be empty). */
  readonly turn: TurnInfoOf<T>;
  /** Every item of the turn, folded from started → deltas → completed, in start order. */
  readonly items: readonly ThreadItemOf<T>[];
  /** What the agent said last: the text of the turn's last agent message. */
  readonly finalText: string;
  /**
   * Items that started but never completed (e.g. an agent message cut off when the turn failed,
   * was interrupted or steered): their text in `items` is only what streamed. Empty for a turn
   * that ended normally.
   */
  readonly incompleteItemIds: readonly string[];
  /** Whether `finalText` is a whole message (false when the last agent message never completed). */
  readonly finalTextComplete: boolean;
  readonly error: TurnInfoOf<T> extends { error: infer E } ? E : TurnError | null;
  /** `turn/completed`, or the watchdog (idle thread without `turn/completed`, read back with `thread/read`). */
  readonly completedBy: "turn/completed" | "watchdog";
  /**
   * The last `thread/tokenUsage/updated` of this turn (codex sends one after each model response):
   * `last` is the last model response's tokens, `total` the thread's running total; null when none came.
   */
  readonly usage: TokenUsageOf<T> | null;
  /** With `outputSchema`: the final message parsed as JSON and validated (typed by the schema); else undefined. */
  readonly output: O | undefined;
  /** With `outputSchema`: why `output` is missing (not completed, not JSON, or the schema's issues). */
  readonly outputError: OutputValidationError | undefined;
}

export interface TurnOptions<T extends ProtocolTypesShape = DefaultProtocolTypes, S extends OutputSchema | undefined = OutputSchema | undefined> {
  /** Aborting interrupts the turn on the server (or takes it out of its thread's queue before it started). */
  readonly signal?: AbortSignal;
  /**
   * The final message must be JSON of this schema: a Standard Schema (zod, valibot, arktype, …)
   * that can give its JSON Schema, `{ schema, jsonSchema }`, or a plain JSON Schema. codex gets
   * it as `turn/start`'s `outputSchema`; `completed.output` is the parsed, validated value (typed
   * by the schema) and `turn.output` resolves with it.
   */
  readonly outputSchema?: S;
  /**
   * What to do while another turn this client started on the thread is running or queued: "queue"
   * (the default) sends `turn/start` once the turns before it ended; "fail" makes `run()` throw
   * ThreadBusyError. codex itself would fold a second `turn/start` into the running turn.
   */
  readonly whenBusy?: "queue" | "fail";
  /** More `turn/start` params (model, cwd, approvalPolicy, sandboxPolicy, …). */
  readonly params?: Omit<TurnStartParamsOf<T>, "threadId" | "input">;
  /**
   * After the thread goes idle, how long to wait for `turn/completed` before reading the thread and
   * completing the turn from it (default 3 000 ms). While the thread still shows the turn running,
   * it is read again with backoff (doubling, up to 30 s) until it ends.
   */
  readonly watchdogGraceMs?: number;
  /**
   * End the turn if it has not ended this long after `run()`: `completed` rejects with
   * TurnTimeoutError and the server is asked to interrupt it. Default: the client's
   * `turnTimeoutMs`, else none (turns can legitimately run for hours).
   */
  readonly turnTimeoutMs?: number;
  /**
   * How many values a `for await` loop over the turn may fall behind before it throws
   * QueueOverflowError (after yielding what it had). Default 100 000.
   */
  readonly maxQueuedEvents?: number;
  /**
   * How many of this turn's events are held while `turn/start` has not answered (its id is not
   * known yet); past it they are dropped and counted in a `buffer-overflow` diagnostic. Default 10 000.
   */
  readonly maxEarlyEvents?: number;
  /**
   * Keep this turn's notifications from its start until `takeEvents()`, for a reader that comes
   * after some of them (`events$` is hot). Each run of deltas of one item in a row is kept as one
   * delta of their joined text; agent text and command output, which the turn keeps anyway, are not
   * kept twice while their item streams. Default false.
   */
  readonly keepEvents?: boolean;
}

/** Events kept for a turn before `turn/start` has answered: enough for any real server, bounded for a broken one. */
const DEFAULT_MAX_EARLY_EVENTS = 10_000;
/** The longest wait between two watchdog reads of a thread that still shows the turn running. */
const MAX_WATCHDOG_DELAY_MS = 30_000;
/** How long a thread waits for the late reply of a `turn/start` that timed out (see holdForLateStart). */
const LATE_START_WAIT_MS = 10_000;

/** The turn id a `turn/start` result names, if any. */
const startedTurnId = (response: unknown): unknown => (response as { turn?: { id?: unknown } } | null)?.turn?.id;

/** Set by CodexTurn's static block, which alone can read its private streams. */
let readSubscriberCount: (turn: CodexTurn<ProtocolTypesShape>) => number;

/** How many subscribers a turn's `events$`, `items$` and `text$` have together now (for leak checks, through `@codex-rpc/core/testing`). */
export function turnSubscriberCount<T extends ProtocolTypesShape>(turn: CodexTurn<T>): number {
  return readSubscriberCount(turn as unknown as CodexTurn<ProtocolTypesShape>);
}

/**
 * One turn: started at once (like a Promise), its notifications routed by thread and turn id.
 *
 * `events$`, `items$` and `text$` are hot: subscribe right after `run()` to see everything (events
 * that arrive before the `turn/start` reply are held until the turn id is known). `completed` holds
 * the outcome regardless.
 *
 * Cancellation is explicit: `interrupt()`, aborting the `signal` given to `run()`, or `break` /
 * `return` out of `for await (const event of turn)` interrupt the turn on the server, whatever
 * else listens. Unsubscribing an Observable never does (`firstValueFrom(turn.text$)` or `take(1)`
 * leave the turn running): a subscriber of a hot stream does not control its producer.
 */
export class CodexTurn<T extends ProtocolTypesShape = DefaultProtocolTypes, O = undefined> implements AsyncIterable<ServerNotificationOf<T>> {
  static {
    readSubscriberCount = (turn) => turn.eventSubject.subscriberCount + turn.itemSubject.subscriberCount + turn.textSubject.subscriberCount;
  }

  readonly events$: Observable<ServerNotificationOf<T>>;
  readonly items$: Observable<TurnItemUpdate<ThreadItemOf<T>>>;
  /** The agent's text: each agent-message delta, and the text of an agent message that came whole (no delta; a review's closing message). */
  readonly text$: Observable<string>;
  /** Resolves when the turn ends (any status); rejects if the connection closes first, or it never started (cancelled while queued). */
  readonly completed: Promise<CompletedTurn<T, O>>;
  /** Resolves with the turn id once the server accepted `turn/start`. */
  readonly started: Promise<string>;
  /** With `outputSchema`: the validated output; rejects with OutputValidationError when there is none (or as `completed` does). */
  readonly output: Promise<O>;

  // The three streams are hot; their subscribers leaving never interrupts the turn (see the class comment).
  private readonly eventSubject = new Multicast<ServerNotification>();
  private readonly itemSubject = new Multicast<TurnItemUpdate>();
  private readonly textSubject = new Multicast<string>();
  private readonly fold = new TurnItemsFold();
  /** With `keepEvents`: the notifications so far, until `takeEvents()`. */
  private journal: Pick<TurnJournal, "record" | "events"> | undefined;
  private stopListening: () => void = () => {};
  /** The next turn of the thread may start (see turn-queue.ts). */
  private readonly releaseQueue: () => void;
  /** Set when the turn ends on our side before the server's (a timeout): the queue waits for it. */
  private queueHeldBy: Promise<unknown> | undefined;
  /** `turn/start` was sent (not queued any more). */
  private begun = false;
  /** Why the turn failed, for a queued turn's `started`. */
  private failure: unknown;
  /** Rejects `started` of a turn still queued. */
  private rejectQueued: ((error: unknown) => void) | undefined;
  private usage: unknown = null;
  private readonly outputSchema: PreparedOutputSchema | undefined;
  private readonly host: SessionHost;
  private readonly watchdogGraceMs: number;
  private early: ServerNotification[] | undefined = [];
  private turnId: string | undefined;
  private done = false;
  /** The server sent this turn's `turn/started`: it has begun it (and takes an interrupt). */
  private startedSeen = false;
  private cancelWatchdog: CancelTimer | undefined;
  private cancelTurnTimeout: CancelTimer | undefined;
  private watchdogDelayMs: number;
  private earlyDropped = 0;
  /** The thread's last status (`thread/status/changed`), seen even before the turn id is known. */
  private threadStatus: string | undefined;
  /** A watchdog `thread/read` is in flight. */
  private reading = false;
  private readonly maxQueuedEvents: number;
  private readonly maxEarlyEvents: number;
  private resolveCompleted!: (turn: CompletedTurn<T, O>) => void;
  private rejectCompleted!: (error: unknown) => void;

  constructor(
    host: SessionHost,
    readonly threadId: string,
    input: TurnStartParams["input"],
    options: TurnOptions<T> = {},
  ) {
    // Routing and folding read only what every protocol version has; the public types are T's.
    this.host = host;
    this.watchdogGraceMs = options.watchdogGraceMs ?? 3_000;
    checkTimeout(this.watchdogGraceMs, "watchdogGraceMs");
    this.watchdogDelayMs = this.watchdogGraceMs;
    this.maxQueuedEvents = options.maxQueuedEvents ?? 100_000;
    if (!(this.maxQueuedEvents >= 1)) throw new RangeError(`maxQueuedEvents must be at least 1, got ${String(options.maxQueuedEvents)}`);
    this.maxEarlyEvents = options.maxEarlyEvents ?? DEFAULT_MAX_EARLY_EVENTS;
    if (!(this.maxEarlyEvents >= 0)) throw new RangeError(`maxEarlyEvents must be a number ≥ 0, got ${String(options.maxEarlyEvents)}`);
    const turnTimeoutMs = options.turnTimeoutMs ?? host.turnTimeoutMs;
    // Checked before anything is sent: a bad option must not leave a turn running on the server.
    if (turnTimeoutMs !== undefined) checkTimeout(turnTimeoutMs, "turnTimeoutMs");
    this.outputSchema = options.outputSchema === undefined ? undefined : prepareOutputSchema(options.outputSchema);
    if (this.outputSchema && (options.params as { outputSchema?: unknown } | undefined)?.outputSchema !== undefined) {
      throw new InvalidOptionError("outputSchema", "given twice: as an option and in `params`; pass it once");
    }
    if (options.whenBusy === "fail") {
      const pending = pendingTurns(host, threadId);
      if (pending > 0) throw new ThreadBusyError(threadId, pending);
    } else if (options.whenBusy !== undefined && options.whenBusy !== "queue") {
      throw new InvalidOptionError("whenBusy", `must be "queue" or "fail", got ${excerptOf(String(options.whenBusy))}`);
    }
    // Every option checked: from here the turn is made, and its events can be kept.
    if (options.keepEvents === true) this.keepEvents();
    this.events$ = this.eventSubject.observable as unknown as Observable<ServerNotificationOf<T>>;
    this.items$ = this.itemSubject.observable as unknown as Observable<TurnItemUpdate<ThreadItemOf<T>>>;
    this.text$ = this.textSubject.observable;
    this.completed = new Promise<CompletedTurn<T, O>>((resolve, reject) => {
      this.resolveCompleted = resolve;
      this.rejectCompleted = reject;
    });
    // Nobody may be awaiting `completed`: a rejection must not become an unhandled one.
    this.completed.catch(() => undefined);
    this.output = this.completed.then((completed) => {
      if (completed.outputError) throw completed.outputError;
      return completed.output as O;
    });
    this.output.catch(() => undefined);

    // One turn at a time per thread: this one starts now, or once the turns before it ended.
    const ticket = enqueueTurn(host, threadId);
    this.releaseQueue = ticket.release;
    const params = { ...(options.params as object), ...(this.outputSchema && { outputSchema: this.outputSchema.jsonSchema }), threadId, input };
    const ready = ticket.ready;
    // Aborted already: nothing is sent (the same error as a turn cancelled while queued).
    if (options.signal?.aborted) this.fail(new RequestAbortedError("turn/start", undefined, "the signal was aborted before the turn started"));
    this.started =
      ready === undefined
        ? this.begin(params)
        : new Promise<string>((resolve, reject) => {
            // Cancelled while queued: `started` rejects at once, not when the turns before it end.
            this.rejectQueued = reject;
            ready.then(() => this.begin(params)).then(resolve, reject);
          });
    this.started.catch(() => undefined);
    if (turnTimeoutMs !== undefined && !this.done) {
      this.cancelTurnTimeout = startTimer(turnTimeoutMs, () => {
        const turnId = this.turnId;
        // A turn not yet started is interrupted once the server says its id: nobody owns it otherwise.
        const interrupt = (id: string) => this.requestInterrupt(id).catch(() => undefined);
        // The server still runs the turn until it has taken the interrupt: the thread's next turn
        // waits for that answer (a turn/start sent before would be folded into this turn).
        const releaseHold = this.holdQueue();
        // Settled first: the interrupt's own turn/completed (which a server in this process may send
        // while the request is still being written) must not win over the timeout.
        this.fail(new TurnTimeoutError(threadId, turnId, turnTimeoutMs));
        const interrupted = turnId !== undefined ? interrupt(turnId) : this.started.then(interrupt, () => undefined);
        void interrupted.then(releaseHold, releaseHold);
      });
    }

    const signal = options.signal;
    if (signal) {
      const onAbort = () => this.interruptForCaller();
      if (!signal.aborted) signal.addEventListener("abort", onAbort, { once: true });
      void this.completed.then(
        () => signal.removeEventListener("abort", onAbort),
        () => signal.removeEventListener("abort", onAbort),
      );
    }
  }

  /** Sends `turn/start` (when the turn's place in its thread's line came) and follows the thread. */
  private begin(params: object): Promise<string> {
    // Interrupted or timed out while queued: it never starts.
    if (this.done) return Promise.reject(this.failure);
    this.begun = true;
    this.stopListening = this.host.listenToThread(this.threadId, {
      notification: (notification) => this.route(notification),
      closed: (error) => this.fail(error),
    });
    // Not aborted by the signal: a turn/start the server may already have acted on must be answered
    // with turn/interrupt once its id is known (the abort handler waits for it). One that timed out
    // may still be answered, and codex then runs that turn: its late reply interrupts it.
    let lateStart: ((response: unknown) => void) | undefined;
    return this.host.request("turn/start", params, { onLateResult: (response) => lateStart?.(response) }).then(
      (response) => {
        const turnId = startedTurnId(response);
        if (typeof turnId !== "string") {
          const error = new ProtocolError("turn/start", "the result has no `turn.id`");
          this.fail(error);
          throw error;
        }
        this.turnId = turnId;
        if (this.earlyDropped > 0)
          this.report(
            "buffer-overflow",
            `turn ${excerptOf(turnId)}: ${this.earlyDropped} events that arrived before turn/start answered were dropped (more than ${this.maxEarlyEvents})`,
          );
        const early = this.early ?? [];
        this.early = undefined;
        for (const notification of early) this.route(notification);
        // The thread may have gone idle before we knew the turn's id: that arms the watchdog now.
        if (this.threadStatus === "idle") this.onThreadStatus("idle");
        return turnId;
      },
      (error: unknown) => {
        if (error instanceof RequestTimeoutError) lateStart = this.holdForLateStart();
        this.fail(error);
        throw error;
      },
    );
  }

  /**
   * The thread's next turn waits while a timed-out `turn/start` may still be answered (codex folds a
   * `turn/start` on a busy thread into the running turn): until its late reply's turn was
   * interrupted, a late error reply or the close, or LATE_START_WAIT_MS without a reply.
   */
  private holdForLateStart(): (response: unknown) => void {
    const release = this.holdQueue();
    const cancel = startTimer(LATE_START_WAIT_MS, release);
    return (response) => {
      cancel();
      const turnId = startedTurnId(response);
      if (typeof turnId !== "string") return release();
      void this.requestInterrupt(turnId).then(release, release);
    };
  }

  /** Holds the thread's next turn (see end()) until the returned function is called. */
  private holdQueue(): () => void {
    let release!: () => void;
    this.queueHeldBy = new Promise<void>((resolve) => (release = resolve));
    return release;
  }

  /** The turn id, once known. */
  get id(): string | undefined {
    return this.turnId;
  }

  /**
   * Asks the server to stop the turn; it then completes with status `interrupted`. A turn still
   * queued behind another of its thread never starts: `completed` and `started` reject with
   * RequestAbortedError (method `turn/start`).
   */
  async interrupt(): Promise<void> {
    if (this.done) return;
    if (!this.begun) {
      this.fail(new RequestAbortedError("turn/start", undefined, "the turn was interrupted while queued behind another turn of its thread"));
      return;
    }
    const turnId = await this.started;
    if (this.done) return;
    await this.requestInterrupt(turnId);
  }

  /** `turn/interrupt`, sent again if codex refused it before it began the turn: turn-interrupt, loaded now (a rare path). */
  private async requestInterrupt(turnId: string): Promise<void> {
    const { interruptTurn } = await this.host.load("turn/interrupt", import("./turn-interrupt.js"));
    await interruptTurn(this.host, this.threadId, turnId, this.startedSeen);
  }

  /**
   * Adds input to the running turn (`turn/steer`): codex records it as a `userMessage` item of this
   * turn and the model reads it at its next request (a request in flight is not cut short). A
   * queued turn is steered once it started. Rejects with TurnNotRunningError when the turn has
   * ended (here, or on the server before the steer arrived).
   */
  async steer(
    input: string | readonly UserInputOf<T>[],
    params?: Omit<ParamsIn<T["clientRequests"], "turn/steer">, "threadId" | "expectedTurnId" | "input">,
  ): Promise<ResultIn<T["clientRequests"], "turn/steer">> {
    if (this.done) throw new TurnNotRunningError(this.threadId, this.turnId, "the turn has ended");
    let turnId: string;
    try {
      turnId = await this.started;
    } catch (error) {
      throw new TurnNotRunningError(this.threadId, undefined, "the turn did not start", { cause: error });
    }
    if (this.done) throw new TurnNotRunningError(this.threadId, turnId, "the turn has ended");
    return (await steerTurn(this.host, this.threadId, turnId, userInputOf(input), params as object | undefined)) as ResultIn<T["clientRequests"], "turn/steer">;
  }

  /**
   * Each item of the turn so far as its latest update (`started`, `delta` with the text streamed
   * until now, or `completed`), in start order: what an `items$` subscriber joining now has missed.
   * Built from the fold the turn keeps anyway (no events are kept for it).
   */
  itemsSoFar(): TurnItemUpdate<ThreadItemOf<T>>[] {
    return this.fold.latest() as unknown as TurnItemUpdate<ThreadItemOf<T>>[];
  }

  /**
   * The journal's code loads on demand (few turns keep their events; a browser page's first load
   * stays small). What comes before it loaded is kept as it came and recorded into it then (as
   * text of its own: the fold has moved on); were it never to load, everything is kept as it came.
   */
  private keepEvents(): void {
    const early: ServerNotification[] = [];
    const pending = { record: (notification: ServerNotification) => void early.push(notification), events: () => early };
    this.journal = pending;
    import("./turn-journal.js").then(
      ({ TurnJournal }) => {
        if (this.journal !== pending) return; // taken meanwhile
        const journal = new TurnJournal();
        for (const notification of early) journal.record(notification, undefined);
        this.journal = journal;
      },
      () => undefined,
    );
  }

  /** Records a notification for `takeEvents()` (out of `route`, which runs for every message: kept small). */
  private keep(notification: ServerNotification, phase: TurnItemUpdate["phase"] | undefined): void {
    this.journal?.record(notification, phase === "delta" ? this.fold.lastGrown : undefined);
  }

  /**
   * With `keepEvents`: this turn's notifications so far (each run of deltas of one item in a row
   * as one delta of their joined text), and it stops keeping them, so `events$` subscribed in the
   * same synchronous step follows on from them with nothing missed or twice. Without it, or once
   * taken: an empty array. Taken before the journal's code loaded (the first milliseconds of a
   * process's first such turn), they come as they came, not joined.
   */
  takeEvents(): ServerNotificationOf<T>[] {
    const journal = this.journal;
    this.journal = undefined;
    return (journal?.events() ?? []) as ServerNotificationOf<T>[];
  }

  /** `for await (const event of turn)`: this turn's notifications; `break` interrupts the turn. */
  [Symbol.asyncIterator](): AsyncIterator<ServerNotificationOf<T>> {
    const events = toAsyncIterable(this.events$, { highWaterMark: this.maxQueuedEvents })[Symbol.asyncIterator]();
    return {
      next: async () => {
        const result = await events.next();
        // The events end either way; a turn that failed (connection closed) throws its cause here.
        if (result.done) await this.completed;
        return result;
      },
      return: () => {
        // Leaving the loop early is a request to stop: interrupt, whoever else is subscribed.
        if (!this.done) this.interruptForCaller();
        return events.return?.() ?? Promise.resolve({ done: true, value: undefined });
      },
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
      if (this.early.length < this.maxEarlyEvents) this.early.push(notification);
      else this.earlyDropped++;
      return;
    }
    if (turnId !== this.turnId) return;
    if (notification.method === "turn/started") this.startedSeen = true;
    if (notification.method === "thread/tokenUsage/updated") this.usage = notification.params.tokenUsage;
    const whole = notification.method === "item/completed" ? this.fold.unstreamedText(notification.params.item) : undefined;
    const phase = this.fold.apply(notification);
    if (this.journal !== undefined) this.keep(notification, phase);
    // Item snapshots are built only for an items$ subscriber (the fold itself just appends text).
    this.eventSubject.next(notification);
    if (phase && this.itemSubject.observed) this.itemSubject.next(this.fold.itemUpdate(phase));
    if (notification.method === "item/agentMessage/delta") this.textSubject.next(notification.params.delta);
    else if (whole !== undefined) this.textSubject.next(whole);
    if (notification.method === "turn/completed") this.finish(notification.params.turn, "turn/completed");
  }

  /** Users report a missing `turn/completed`: an idle thread is read back after a grace period. */
  private onThreadStatus(status: string): void {
    this.threadStatus = status;
    this.cancelWatchdog?.();
    this.cancelWatchdog = undefined;
    if (status !== "idle" || this.early || this.done) return;
    this.watchdogDelayMs = this.watchdogGraceMs;
    this.cancelWatchdog = startTimer(this.watchdogGraceMs, () => void this.readBack());
  }

  /**
   * Reads the thread and completes the turn from it once it shows the turn ended. Until then (the
   * turn still running, a failed or malformed read), reads again with backoff while the thread is
   * idle: a turn the server finished without telling us must not hang. One read at a time: a
   * status that flaps while a read is slow must not pile reads up.
   */
  private async readBack(): Promise<void> {
    this.cancelWatchdog = undefined;
    const turnId = this.turnId;
    if (this.done || turnId === undefined || this.reading) return;
    this.reading = true;
    const ended = await this.readEndedTurn(turnId, (problem) => {
      if (!this.done) this.report("turn-recovery", `turn ${excerptOf(turnId)}: ${problem}`);
    });
    this.reading = false;
    if (this.done) return;
    if (ended) {
      this.finish(ended, "watchdog");
      return;
    }
    // Active again: the next idle arms a fresh watchdog. A timer armed meanwhile already waits.
    if (this.threadStatus !== "idle" || this.cancelWatchdog) return;
    this.watchdogDelayMs = Math.min(this.watchdogDelayMs * 2, Math.max(MAX_WATCHDOG_DELAY_MS, this.watchdogGraceMs));
    this.cancelWatchdog = startTimer(this.watchdogDelayMs, () => void this.readBack());
  }

  /** Reads the thread: the turn, if it shows the turn ended. Never throws; `onProblem` hears a failed or malformed read (or a failed load of turn-read-back). */
  private async readEndedTurn(turnId: string, onProblem: (problem: string) => void = () => {}): Promise<ProtocolTurn | undefined> {
    let readBack: typeof import("./turn-read-back.js");
    try {
      // Within a request's timeout, as the read's own request: a stalled load is reported and tried again later.
      readBack = await this.host.load("thread/read", import("./turn-read-back.js"));
    } catch (error) {
      onProblem(`could not load the read-back of an ended turn: ${describeThrown(error)}`);
      return undefined;
    }
    return readBack.readEndedTurn(this.host, this.threadId, turnId, onProblem);
  }

  /**
   * Interrupts for the caller (its signal aborted): the caller is not there to see a refusal, so
   * one settles the turn, unless the thread shows it ended anyway.
   */
  private interruptForCaller(): void {
    this.interrupt().catch(async (error: unknown) => {
      if (this.done) return;
      this.report(
        "turn-recovery",
        `turn ${this.turnId === undefined ? "(not started)" : excerptOf(this.turnId)}: turn/interrupt failed: ${describeThrown(error)}`,
      );
      const ended = this.turnId === undefined ? undefined : await this.readEndedTurn(this.turnId);
      if (this.done) return;
      if (ended) this.finish(ended, "watchdog");
      else this.fail(error);
    });
  }

  private report(kind: "buffer-overflow" | "turn-recovery", message: string): void {
    this.host.report({ kind, message });
  }

  private finish(turn: ProtocolTurn, completedBy: CompletedTurn["completedBy"]): void {
    if (this.done) return;
    // Items the stream never showed (e.g. read back by the watchdog) come from the server's turn;
    // some servers omit `items` from turn/completed altogether.
    const serverItems = Array.isArray(turn.items) ? turn.items : [];
    for (const item of serverItems) if (typeof item === "object" && item !== null && typeof item.id === "string") this.fold.record(item);
    this.end();
    const incompleteItemIds = this.fold.incompleteIds();
    const finalMessage = this.fold.finalMessage();
    const completed: CompletedTurn = {
      id: turn.id,
      status: turn.status,
      turn: Array.isArray(turn.items) ? turn : { ...turn, items: [] },
      items: this.fold.list(),
      finalText: finalMessage?.text ?? "",
      incompleteItemIds,
      finalTextComplete: finalMessage === undefined || !incompleteItemIds.includes(finalMessage.id),
      error: turn.error ?? null,
      completedBy,
      usage: this.usage as never,
      output: undefined,
      outputError: undefined,
    };
    // Folded with the fields every version has; typed as the client's protocol says.
    if (this.outputSchema === undefined) this.resolveCompleted(completed as unknown as CompletedTurn<T, O>);
    else {
      const parsed = { ...completed, hasFinalMessage: finalMessage !== undefined };
      const schema = this.outputSchema;
      // Parsed by structured-output-parse, loaded now; a failed load rejects `completed`, and so does
      // one that stalls, after a request's timeout (or at once when the client closes): the turn has
      // ended, so its own timeout and listener are gone.
      void this.host
        .load("turn/completed", import("./structured-output-parse.js"))
        .then((module) => module.parseStructuredOutput(schema, parsed))
        .then((outcome) => this.resolveCompleted({ ...completed, ...outcome } as unknown as CompletedTurn<T, O>), this.rejectCompleted);
    }
    for (const subject of [this.eventSubject, this.itemSubject, this.textSubject]) subject.complete();
  }

  private fail(error: unknown): void {
    if (this.done) return;
    this.failure = error;
    if (!this.begun) this.rejectQueued?.(error);
    this.end();
    this.rejectCompleted(error);
    // The streams end rather than error: an `error` nobody handles is thrown by RxJS and would
    // crash the program; the cause is in `completed` (and `for await` rethrows it).
    for (const subject of [this.eventSubject, this.itemSubject, this.textSubject]) subject.complete();
  }

  private end(): void {
    this.done = true;
    this.early = undefined;
    this.cancelWatchdog?.();
    this.cancelTurnTimeout?.();
    this.stopListening();
    if (this.queueHeldBy === undefined) this.releaseQueue();
    else void this.queueHeldBy.then(this.releaseQueue, this.releaseQueue);
  }
}
