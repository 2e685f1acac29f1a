import type { ThreadReadResponse } from "@codex-rpc/protocol";
import type { DefaultProtocolTypes, ParamsIn, ProtocolTypesShape, ResultIn, ThreadInfoOf, UserInputOf } from "../rpc/protocol-types.js";
import type { SessionHost } from "./session-host.js";
import { CodexTurn, type TurnOptions } from "./codex-turn.js";
import { CodexReviewTurn, type ReviewOptions, type ReviewTargetOf } from "./codex-review-turn.js";
import { paginate, type ListOptions, type PageEntryIn } from "./paginate.js";
import { hostStartingTurnWith } from "./turn-started-by.js";

type Requests<T extends ProtocolTypesShape> = T["clientRequests"];
/** The params of thread method `M` without the `threadId` this thread supplies. */
type ThreadParams<T extends ProtocolTypesShape, M> = Omit<Exclude<ParamsIn<Requests<T>, M>, undefined>, "threadId">;
import type { OutputOf, OutputSchema } from "./structured-output.js";
import { userInputOf } from "./turn-steer.js";

/** A conversation on the server. Many threads (and their turns) share one connection. */
export class CodexThread<T extends ProtocolTypesShape = DefaultProtocolTypes> {
  constructor(
    private readonly host: SessionHost,
    /** The thread as the server described it when it was started or resumed. */
    readonly info: ThreadInfoOf<T>,
  ) {}

  get id(): string {
    return (this.info as { id: string }).id;
  }

  /**
   * Starts a turn with this input (a string is one text input) and returns it at once. While
   * another turn this client started on the thread runs, it waits its turn (`whenBusy`). With
   * `outputSchema`, the completed turn's `output` is the final message parsed and typed by it.
   */
  run<S extends OutputSchema | undefined = undefined>(input: string | readonly UserInputOf<T>[], options?: TurnOptions<T, S>): CodexTurn<T, OutputOf<S>> {
    return new CodexTurn<T, OutputOf<S>>(this.host, this.id, userInputOf(input) as never, options);
  }

  /** The thread as the server has it now, with its turns when asked. */
  read(includeTurns = false): Promise<ResultIn<T["clientRequests"], "thread/read">> {
    return this.host.request("thread/read", { threadId: this.id, includeTurns }) as Promise<ResultIn<T["clientRequests"], "thread/read"> & ThreadReadResponse>;
  }

  /** A new thread with this one's history (`thread/fork`; see "Thread operations" in the README). */
  async fork(params: ThreadParams<T, "thread/fork"> = {} as ThreadParams<T, "thread/fork">): Promise<CodexThread<T>> {
    return new CodexThread<T>(this.host, (await this.host.forkThread({ ...params, threadId: this.id })) as ThreadInfoOf<T>);
  }

  /** Drops turn `beforeTurnId` and every later one from the history (`thread/revert`). */
  revert(beforeTurnId: string): Promise<ResultIn<Requests<T>, "thread/revert">> {
    return this.host.request("thread/revert", { threadId: this.id, beforeTurnId }) as Promise<ResultIn<Requests<T>, "thread/revert">>;
  }

  /** Drops the last `turns` turns (default 1): `revert` to the `turns`-th newest. */
  async rollback(turns = 1): Promise<ResultIn<Requests<T>, "thread/revert">> {
    return this.revert(await (await this.host.load("thread/revert", import("./rollback.js"))).turnToRevert(this.host, this.id, turns));
  }

  /** Compacts the thread's context (`thread/compact/start`): codex runs it as a turn, returned at once. */
  compact(options?: Omit<TurnOptions<T>, "params" | "outputSchema">): CodexTurn<T> {
    return new CodexTurn<T>(
      hostStartingTurnWith(this.host, async (host) => (await host.load("thread/compact/start", import("./compaction.js"))).startCompaction(this.id)(host)),
      this.id,
      [],
      options,
    );
  }

  /** Reviews code (`review/start`) in a turn of this thread; `review` resolves with the review. */
  review(target: ReviewTargetOf<T>, options?: ReviewOptions<T>): CodexReviewTurn<T> {
    return new CodexReviewTurn<T>(this.host, this.id, target, options);
  }

  /** Sets the thread's name (`thread/name/set`). */
  async setName(name: string): Promise<void> {
    await this.host.request("thread/name/set", { threadId: this.id, name });
  }

  /** Archives the thread (`thread/archive`): codex unloads it (status `notLoaded`); `thread/list` shows it with `archived: true` only. */
  async archive(): Promise<void> {
    await this.host.request("thread/archive", { threadId: this.id });
  }

  /** Brings an archived thread back (`thread/unarchive`); it stays unloaded: `client.resumeThread(id)` to run turns on it. */
  unarchive(): Promise<ResultIn<Requests<T>, "thread/unarchive">> {
    return this.host.request("thread/unarchive", { threadId: this.id }) as Promise<ResultIn<Requests<T>, "thread/unarchive">>;
  }

  /** The thread's turns, a page at a time (`thread/turns/list`; newest first unless `sortDirection: "asc"`). */
  turns(
    params: ThreadParams<T, "thread/turns/list"> = {} as ThreadParams<T, "thread/turns/list">,
    options?: ListOptions,
  ): AsyncIterable<PageEntryIn<Requests<T>, "thread/turns/list">> {
    return paginate("thread/turns/list", { ...params, threadId: this.id }, this.host, options);
  }

  /** The thread's items with their turn ids, a page at a time (`thread/items/list`; oldest first by default). */
  items(
    params: ThreadParams<T, "thread/items/list"> = {} as ThreadParams<T, "thread/items/list">,
    options?: ListOptions,
  ): AsyncIterable<PageEntryIn<Requests<T>, "thread/items/list">> {
    return paginate("thread/items/list", { ...params, threadId: this.id }, this.host, options);
  }
}
