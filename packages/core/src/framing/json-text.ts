/**
 * JSON.stringify writes a lone surrogate (a JavaScript string cut in the middle of an emoji, say)
 * as the escape `\udXXX`. codex's parser (serde_json) refuses such an escape, drops the whole line
 * and answers nothing, so the request would wait out its timeout. A UTF-8 encoder writes U+FFFD
 * for a lone surrogate; this does the same to the escape. A pair is written as itself, never
 * escaped, so every surrogate escape JSON.stringify writes is a lone one.
 */
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/** One message as JSON text codex can parse: JSON.stringify, lone surrogates as U+FFFD. Throws what JSON.stringify throws. */
export function encodeJsonText(message: unknown): string {
  const text = JSON.stringify(message);
  // Almost never there: one native search keeps the common case at JSON.stringify's cost.
  return text.includes("\\ud") ? text.replace(LONE_SURROGATE_ESCAPE, "$1\\ufffd") : text;
}
