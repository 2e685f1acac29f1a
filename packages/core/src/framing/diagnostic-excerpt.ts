import { redactSecrets } from "../redact-secrets.js";

const EXCERPT_CHARS = 200;
/** Redacted before the cut, wide enough that secrets shrinking to "[REDACTED]" cannot pull a cut-off one into the excerpt. */
const REDACTION_WINDOW_CHARS = 16 * 1024;

/**
 * The start of a message that was dropped, for a diagnostic: at most 200 characters, redacted
 * (diagnostics end up in logs).
 */
export function diagnosticExcerpt(text: string): string {
  return redactSecrets(text.slice(0, REDACTION_WINDOW_CHARS)).slice(0, EXCERPT_CHARS);
}
