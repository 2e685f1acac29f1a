import { InvalidOptionError } from "../errors/errors.js";
import type { DefaultProtocolTypes, ParamsIn, ProtocolTypesShape } from "../rpc/protocol-types.js";
import { CodexTurn, type CompletedTurn, type TurnOptions } from "./codex-turn.js";
import type { SessionHost } from "./session-host.js";
import { hostStartingTurnWith } from "./turn-started-by.js";

type ReviewStartParamsOf<T extends ProtocolTypesShape> = Exclude<ParamsIn<T["clientRequests"], "review/start">, undefined>;
/** What to review: `{ type: "uncommittedChanges" }`, `{ type: "baseBranch", branch }`, `{ type: "commit", sha }`, `{ type: "custom", instructions }`. */
export type ReviewTargetOf<T extends ProtocolTypesShape> = ReviewStartParamsOf<T> extends { target: infer X } ? X : never;

export interface ReviewOptions<T extends ProtocolTypesShape = DefaultProtocolTypes> extends Omit<TurnOptions<T>, "params" | "outputSchema"> {
  /**
   * `review/start`'s `delivery`: codex 0.169.0 knows only `"inline"` (the default), the review runs on
   * this thread. Older codex also has `"detached"` (the review runs on a new thread): the turn can only
   * follow its own thread, so that is an InvalidOptionError; start or fork a thread and review on it.
   */
  readonly delivery?: ReviewStartParamsOf<T> extends { delivery?: infer D } ? D : never;
}

/** How a review turn ended: the turn, and the review codex made of the reviewer's output. */
export interface CompletedReview<T extends ProtocolTypesShape = DefaultProtocolTypes> extends CompletedTurn<T> {
  /**
   * The review (the `exitedReviewMode` item's `review`): the text codex renders from the reviewer's
   * JSON findings (the overall explanation, then each finding's title, location and body), or the
   * reviewer's text as is when it was not that JSON. `null` when the turn ended without one
   * (interrupted, failed).
   */
  readonly review: string | null;
  /** What was reviewed, as codex put it (the `enteredReviewMode` item's `review`, e.g. "current changes"). */
  readonly reviewed: string | null;
}

/**
 * A review (`review/start`): a turn like any other (`events$`, `items$`, `interrupt()`, `completed`),
 * plus `review`, which resolves with the review once the turn ends.
 *
 * codex 0.169.0 runs the reviewer as a sub-agent on the same thread: its `turn/started` carries an id
 * of its own (with `rootTurnId` the review's), but every item and the final `turn/completed` carry
 * the id `review/start` answered with, so they are this turn's. The reviewer's own agent message only
 * starts (it never completes and streams no deltas): it is in `incompleteItemIds`; the rendered
 * review follows as `exitedReviewMode` and a completed agent message (`finalText`).
 */
export class CodexReviewTurn<T extends ProtocolTypesShape = DefaultProtocolTypes> extends CodexTurn<T> {
  /** Resolves when the review turn ends (any status); rejects if the connection closes first. */
  readonly review: Promise<CompletedReview<T>>;

  constructor(host: SessionHost, threadId: string, target: ReviewTargetOf<T>, options: ReviewOptions<T> = {}) {
    const { delivery, ...turnOptions } = options;
    if (delivery !== undefined && delivery !== null && delivery !== "inline") {
      throw new InvalidOptionError("delivery", 'only "inline" can be followed; review on a thread of its own instead');
    }
    const params = { threadId, target, ...(delivery === undefined ? {} : { delivery }) };
    super(
      hostStartingTurnWith(host, (client) => client.request("review/start", params)),
      threadId,
      [],
      turnOptions,
    );
    this.review = this.completed.then((completed) => ({
      ...completed,
      review: lastReviewText(completed.items, "exitedReviewMode"),
      reviewed: lastReviewText(completed.items, "enteredReviewMode"),
    }));
    this.review.catch(() => undefined);
  }
}

function lastReviewText(items: readonly unknown[], type: "enteredReviewMode" | "exitedReviewMode"): string | null {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index] as { type?: unknown; review?: unknown } | null;
    if (item?.type === type && typeof item.review === "string") return item.review;
  }
  return null;
}
