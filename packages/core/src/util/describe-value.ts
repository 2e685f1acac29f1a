import { diagnosticExcerpt } from "./diagnostic-excerpt.js";
import { redactedStart } from "./redact-secrets.js";
import { MAX_REPLY_NESTING, nestsDeeperThan } from "./json-nesting.js";

/** Longest text a diagnostic or error built from foreign data carries. */
const MAX_DESCRIPTION_CHARS = 500;

/**
 * A thrown value as text, whatever it is: an Error's message, a string, or a tag for values whose
 * `toString` is missing (`Object.create(null)`) or throws. Never throws; redacted and bounded,
 * since it ends up in replies to the server and in diagnostics.
 */
export function describeThrown(value: unknown): string {
  let text: string;
  try {
    if (value instanceof Error) text = String(value.message);
    else if (typeof value === "string") text = value;
    else if (typeof value === "symbol") text = value.toString();
    else text = String(value);
  } catch {
    text = tagOf(value);
  }
  return redactedStart(text, MAX_DESCRIPTION_CHARS);
}

/** `[object Object]`-style tag; even that throws for a revoked Proxy. */
function tagOf(value: unknown): string {
  try {
    return Object.prototype.toString.call(value);
  } catch {
    return "(an unreadable value)";
  }
}

/**
 * The start of a message's JSON, for a diagnostic. A message can be too deep for `JSON.stringify`
 * (it recurses) or hold a cycle or BigInt after a handler touched it: then a tag says so.
 */
export function excerptOf(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? typeof value : diagnosticExcerpt(json);
  } catch (error) {
    return `(not serialisable: ${describeThrown(error)})`;
  }
}

/**
 * The JSON text of a value that must go out as JSON, or why it cannot: BigInt, cycles, functions,
 * Symbols and `undefined` at the top do not survive `JSON.stringify`, and a throwing `toJSON` or
 * getter throws; codex reads no reply nested too deep. Never throws.
 */
export function checkJson(value: unknown): { ok: true } | { ok: false; reason: string } {
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return { ok: false, reason: `a ${typeof value} is not JSON` };
    // codex would drop the reply unanswered, and the turn waiting on it would wait for ever.
    if (nestsDeeperThan(json, MAX_REPLY_NESTING)) return { ok: false, reason: `it nests deeper than the ${MAX_REPLY_NESTING} levels codex reads` };
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: describeThrown(error) };
  }
}
