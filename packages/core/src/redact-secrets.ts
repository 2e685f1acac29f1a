/**
 * Secret redaction for text that leaves the process in errors and diagnostics (server stderr,
 * excerpts of bad lines). It errs on the side of redacting: a false positive costs a log line's
 * readability, a false negative leaks a credential.
 */

const REDACTED = "[REDACTED]";

/** `Authorization: <anything up to the end of the header value>`, bare (not quoted) values. */
const AUTHORIZATION_HEADER = /(?<![\w-])((?:proxy-)?authorization)(\s*[:=]\s*)(?=[^\s"'\\[])[^\r\n"',;}\]]+/gi;

/**
 * A key named like a credential (ending in api_key / apiKey / token / secret / password …, so
 * `OPENAI_API_KEY`, `x-api-key`, `refresh_token`, `clientSecret` match but `max_tokens` and
 * `token_count` do not), then `=` or `:`, then a value: a JSON string, an escaped JSON string
 * (`\"…\"`, as in JSON logged inside a string), a single-quoted string, Rust's `Some("…")`, or
 * a bare word.
 */
const CREDENTIAL_KEY = String.raw`[\w.-]*?(?:api[_-]?key|token|secret|password|passwd|authorization)`;
const KEY_VALUE = new RegExp(
  String.raw`(?<![\w.-])(\\?["']?)(${CREDENTIAL_KEY})\1(\s*[:=]\s*)` +
    String.raw`(\[REDACTED\]|\\"(?:[^\\]|\\[^"])*?\\"|"(?:[^"\\]|\\.)*"|'[^'\r\n]*'|Some\("(?:[^"\\]|\\.)*"\)|[^\s"',;&)}\]]+)`,
  "gi",
);

/** `Bearer <token>` anywhere (headers, URLs, prose); at least 8 characters so "bearer token" survives. */
const BEARER_TOKEN = /\b(Bearer\s+)[\w\-.~+/]{8,}=*/gi;

/** OpenAI-style keys: `sk-…`, `sk-proj-…`, `sk-svcacct-…`. */
const OPENAI_KEY = /(?<![\w-])sk-[\w-]{16,}/g;

export function redactSecrets(text: string): string {
  return text
    .replace(AUTHORIZATION_HEADER, `$1$2${REDACTED}`)
    .replace(KEY_VALUE, (_match, quote: string, key: string, separator: string, value: string) => {
      return `${quote}${key}${quote}${separator}${redactValue(value)}`;
    })
    .replace(BEARER_TOKEN, `$1${REDACTED}`)
    .replace(OPENAI_KEY, REDACTED);
}

/** Keeps the value's quoting so redacted JSON stays JSON. */
function redactValue(value: string): string {
  if (value === REDACTED) return value;
  if (value.startsWith('\\"')) return `\\"${REDACTED}\\"`;
  if (value.startsWith('"')) return `"${REDACTED}"`;
  if (value.startsWith("'")) return `'${REDACTED}'`;
  if (value.startsWith('Some("')) return `Some("${REDACTED}")`;
  return REDACTED;
}
