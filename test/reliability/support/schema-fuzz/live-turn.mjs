// Turns played by hand on a FakeAppServer: `turn/start` is answered with the schema's valid
// TurnStartResponse for a fresh turn id (a custom responder, so the fake streams nothing itself),
// and the caller sends the turn's messages — valid ones from the catalogue templates, malformed
// ones from malformed-messages.mjs — as raw lines, ending it with a valid `turn/completed`.
import { instantiate } from "./malformed-messages.mjs";

/** The ids a live turn's messages route by; `text` fills the templates' delta texts. */
export function liveIds(threadId, turnId, text) {
  return { thread: threadId, turn: turnId, item: `${turnId}-message`, text };
}

/**
 * Answers `thread/start` and `thread/read` on `fake` with the schema's valid replies (thread
 * `fz-thread-N`, no turns), so that a client validating results accepts them whatever the fake's
 * own replies look like.
 */
export function answerThreadRequests(fake, catalogue) {
  let next = 0;
  fake.respond("thread/start", () => ({ result: instantiate(catalogue.clientResults.get("thread/start"), liveIds(`fz-thread-${++next}`, "no-turn")) }));
  fake.respond("thread/read", (params) => ({
    result: instantiate(catalogue.clientResults.get("thread/read"), liveIds(typeof params?.threadId === "string" ? params.threadId : "no-thread", "no-turn")),
  }));
}

/**
 * Answers `turn/start` on `fake` with a valid reply for turn `fz-turn-N`. `replaceNext(make)` has
 * the next reply built by `make(ids)` instead (the result; `undefined` sends a reply without one).
 */
export function answerTurnStart(fake, catalogue) {
  let next = 0;
  let replacement;
  fake.respond("turn/start", (params) => {
    const ids = liveIds(typeof params?.threadId === "string" ? params.threadId : "no-thread", `fz-turn-${++next}`);
    const make = replacement;
    replacement = undefined;
    return { result: make ? make(ids) : inProgress(instantiate(catalogue.turnStartResponse, ids)) };
  });
  return {
    replaceNext(make) {
      replacement = make;
    },
  };
}

/** A valid notification of `method` for the live turn, as a line (no newline), tagged `emittedAtMs: seq`. */
export function validNotificationLine(catalogue, method, ids, seq, adjust = (params) => params) {
  return JSON.stringify({ method, emittedAtMs: seq, params: adjust(instantiate(catalogue.byMethod.get(method), ids)) });
}

/** The template's turn status is the schema's first (`completed`); a starting turn is `inProgress`. */
function inProgress(params) {
  if (params?.turn && typeof params.turn === "object") params.turn.status = "inProgress";
  return params;
}

/** The messages that open a live turn the way codex does: turn/started, the thread active, the agent message started. */
export function openingLines(catalogue, ids, firstSeq) {
  const active = JSON.stringify({
    method: "thread/status/changed",
    emittedAtMs: firstSeq + 1,
    params: { threadId: ids.thread, status: { type: "active", activeFlags: [] } },
  });
  return [
    validNotificationLine(catalogue, "turn/started", ids, firstSeq, inProgress),
    active,
    validNotificationLine(catalogue, "item/started", ids, firstSeq + 2),
  ];
}

/** The valid `turn/completed` that ends the live turn. */
export function closingLine(catalogue, ids, seq) {
  return validNotificationLine(catalogue, "turn/completed", ids, seq);
}
