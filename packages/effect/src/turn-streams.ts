// A turn's `text` and `items` Streams at the cost of core's own: a run replays what it missed from
// the fold core keeps for the turn anyway (`itemsSoFar()`), then follows core's hot Observable.
// Nothing is recorded for them, and item snapshots are built only while an `items` Stream runs.
// The text is pulled without a Queue (pull-stream.ts): its reader runs an Effect per piece. A turn
// that fails (codex gone, a timeout) fails them with its tagged error, where core only ends them.
import type { CodexTurn, ProtocolTypesShape, ThreadItemOf, TurnItemUpdate } from "@codex-rpc/core";
import type { Stream } from "effect";
import type { CodexError } from "./errors.js";
import { endingAs, streamFrom } from "./observable-stream.js";
import { pulledText } from "./pull-stream.js";

/**
 * The agent's text: what streamed before the run as one piece (the agent messages so far, joined),
 * then the deltas, what came between two pulls of the reader (at least one read of the transport)
 * joined into one piece.
 */
export function turnText<T extends ProtocolTypesShape, O>(turn: CodexTurn<T, O>): Stream.Stream<string, CodexError> {
  return pulledText(
    turn.text$,
    () => turn.completed,
    () => {
      let text = "";
      for (const { item } of turn.itemsSoFar() as readonly TurnItemUpdate<{ type: string; text?: unknown }>[])
        if (item.type === "agentMessage" && typeof item.text === "string") text += item.text;
      return text;
    },
  );
}

/** Each item's latest update so far (one per item, in start order), then every update as it is folded. */
export function turnItems<T extends ProtocolTypesShape, O>(turn: CodexTurn<T, O>): Stream.Stream<TurnItemUpdate<ThreadItemOf<T>>, CodexError> {
  return streamFrom(
    endingAs(turn.items$, () => turn.completed),
    () => turn.itemsSoFar(),
  );
}
