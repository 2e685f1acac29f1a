import { redactSecrets } from "../redact-secrets.js";

const EXCERPT_CHARS = 200;

/**
 * The start of a message that was dropped, for a diagnostic: at most 200 characters, redacted
 * (diagnostics end up in logs). Redacts a little more than it keeps so a secret that straddles
 * the cut is still recognised.
 */
export function diagnosticExcerpt(text: string): string {
  return redactSecrets(text.slice(0, EXCERPT_CHARS * 2)).slice(0, EXCERPT_CHARS);
}
