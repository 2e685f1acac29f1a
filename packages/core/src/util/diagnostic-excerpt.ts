import { redactedStart } from "./redact-secrets.js";

const EXCERPT_CHARS = 200;

/**
 * The start of a message that was dropped, for a diagnostic: at most 200 characters, redacted
 * (diagnostics end up in logs).
 */
export function diagnosticExcerpt(text: string): string {
  return redactedStart(text, EXCERPT_CHARS);
}
