/**
 * Secret redaction for text that leaves the process in errors and diagnostics (server stderr,
 * excerpts of bad lines, server error messages, tool failures). It errs on the side of redacting:
 * a false positive costs a log line's readability, a false negative leaks a credential.
 */

const REDACTED = "[REDACTED]";

/**
 * A PEM private key, to its END line; without one (a cut-off line) up to the first character a
 * key body or its headers (`Proc-Type: 4,ENCRYPTED`) cannot hold. Bodies may be split by real
 * newlines or by JSON's `\n` escapes.
 */
const PEM_PRIVATE_KEY =
  /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----()|(?:\[REDACTED\])?(?:[\w+/=:,\s-]|\\[nrt])*)/g;

/**
 * A line that is only base64, 40+ characters with upper case, lower case and digits: a PEM body
 * line seen one line at a time (stderr), or a bare secret. Hex digests (no upper case) survive.
 */
const BASE64_LINE = /^([ \t]*)(?=[A-Za-z0-9+/]*[A-Z])(?=[A-Za-z0-9+/]*[a-z])(?=[A-Za-z0-9+/]*\d)[A-Za-z0-9+/]{40,}={0,2}(?=[ \t]*\r?$)/gm;

/**
 * `scheme://user:password@` (or a token as the user name) in a URL of any scheme. The bounds keep
 * it linear: unbounded, `a-a-a-…` made every position scan to the end (seconds for 64 KB).
 */
const URL_USERINFO = /(?<![\w+.-])([a-z][\w+.-]{0,31}:\/\/)[^\s/?#"'<>`]{1,1024}@/gi;

/** `Authorization: <anything up to the end of the header value>`, bare (not quoted) values. */
const AUTHORIZATION_HEADER = /(?<![\w-])((?:proxy-)?authorization)(\s*[:=]\s*)(?=[^\s"'\\[])[^\r\n"',;}\]]+/gi;

/** `Cookie:` / `Set-Cookie:` header lines: the whole value, `;` and `,` included (they separate cookies and attributes). */
const COOKIE_HEADER = /(?<![\w-])((?:set-)?cookie)(\s*:\s*)(?=[^\s"'\\[])[^\r\n"'}\]]+/gi;

/**
 * A key named like a credential (ending in api_key / apiKey / token / secret / password /
 * secret_access_key / private_key / cookie …, so `OPENAI_API_KEY`, `x-api-key`, `refresh_token`,
 * `clientSecret`, `AWS_SECRET_ACCESS_KEY` match but `max_tokens`, `token_count` and `sort_key` do
 * not), then `=` or `:`, then a value: a JSON string, an escaped JSON string (`\"…\"`, as in JSON
 * logged inside a string), a single-quoted string, Rust's `Some("…")`, or a bare word.
 */
const CREDENTIAL_KEY = String.raw`[\w.-]*?(?:api[_-]?key|(?:secret|private|access)[_-]?key|token|secret|password|passwd|authorization|cookie)`;
const KEY_VALUE = new RegExp(
  String.raw`(?<![\w.-])(\\?["']?)(${CREDENTIAL_KEY})\1(\s*[:=]\s*)` +
    // A quoted value with no closing quote (a line cut short) runs to the end: still the secret.
    String.raw`(\[REDACTED\]|\\"(?:[^\\]|\\[^"])*?\\"|"(?:[^"\\]|\\.)*"|"(?:[^"\\]|\\.)*$|'[^'\r\n]*'|Some\("(?:[^"\\]|\\.)*"\)|[^\s"',;&)}\]]+)`,
  "gi",
);

/** `Bearer <token>` anywhere (headers, URLs, prose); at least 8 characters so "bearer token" survives. */
const BEARER_TOKEN = /\b(Bearer\s+)[\w\-.~+/]{8,}=*/gi;

/** OpenAI-style keys: `sk-…`, `sk-proj-…`, `sk-svcacct-…`. */
const OPENAI_KEY = /(?<![\w-])sk-[\w-]{16,}/g;

/** AWS access key ids: long-term `AKIA…`, temporary `ASIA…` (and the rarer ABIA/ACCA). */
const AWS_ACCESS_KEY_ID = /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g;

/** GitHub tokens: `ghp_` (classic), `gho_`, `ghu_`, `ghs_`, `ghr_`, and fine-grained `github_pat_`. */
const GITHUB_TOKEN = /(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,})/g;

/** Slack tokens: `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`. */
const SLACK_TOKEN = /(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}/g;

/** JSON Web Tokens: two base64url JSON objects (`eyJ` is `{"`) and a signature, maybe empty. */
const JWT = /(?<![\w-])eyJ[\w-]{2,}\.eyJ[\w-]{2,}\.[\w-]*/g;

export function redactSecrets(text: string): string {
  return text
    .replace(PEM_PRIVATE_KEY, (_match, kind: string, ended: string | undefined) => {
      const begin = `-----BEGIN ${kind}PRIVATE KEY-----${REDACTED}`;
      return ended === undefined ? begin : `${begin}-----END ${kind}PRIVATE KEY-----`;
    })
    .replace(BASE64_LINE, `$1${REDACTED}`)
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(AUTHORIZATION_HEADER, `$1$2${REDACTED}`)
    .replace(COOKIE_HEADER, `$1$2${REDACTED}`)
    .replace(KEY_VALUE, (_match, quote: string, key: string, separator: string, value: string) => {
      return `${quote}${key}${quote}${separator}${redactValue(value)}`;
    })
    .replace(BEARER_TOKEN, `$1${REDACTED}`)
    .replace(OPENAI_KEY, REDACTED)
    .replace(AWS_ACCESS_KEY_ID, REDACTED)
    .replace(GITHUB_TOKEN, REDACTED)
    .replace(SLACK_TOKEN, REDACTED)
    .replace(JWT, REDACTED);
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

const TRUNCATED = "[TRUNCATED]";
/** The longest string `redactDeep` keeps whole. */
const MAX_STRING_CHARS = 2_000;
const MAX_DEPTH = 32;

/** A whole property name that names a credential (`password`, `api_key`, `refreshToken` …). */
const CREDENTIAL_NAME = new RegExp(`^${CREDENTIAL_KEY}$`, "i");

/**
 * A copy of a JSON-like value (e.g. a server error's `data`) with every string, keys included,
 * redacted, and any string or number under a credential-named key replaced. Bounded: past depth 32 or `budget` values in all, the rest becomes "[TRUNCATED]".
 * Never throws: a cycle becomes "[CIRCULAR]", an unreadable property "[UNREADABLE]", a BigInt
 * or symbol its text, a function undefined (as JSON.stringify would drop it).
 */
export function redactDeep(value: unknown, budget = 10_000): unknown {
  return copyRedacted(value, 0, { left: budget, ancestors: new Set() });
}

interface DeepState {
  left: number;
  readonly ancestors: Set<object>;
}

function copyRedacted(value: unknown, depth: number, state: DeepState, underCredential = false): unknown {
  if (state.left <= 0 || depth > MAX_DEPTH) return TRUNCATED;
  state.left--;
  switch (typeof value) {
    case "string":
      // Under a credential-named key (`set-cookie: [...]`, `authorization: {...}`), every string is the secret.
      if (underCredential) return REDACTED;
      // Bounded like every text from the server: a 1 MB string keeps its start, marked cut.
      return value.length > MAX_STRING_CHARS ? `${redactedStart(value, MAX_STRING_CHARS)} …[cut]` : redactSecrets(value);
    case "number":
    case "boolean":
    case "undefined":
      return value;
    case "bigint":
      return value.toString();
    case "symbol":
      return redactSecrets(value.toString());
    case "function":
      return undefined;
  }
  if (value === null) return null;
  const object = value as object;
  if (state.ancestors.has(object)) return "[CIRCULAR]";
  state.ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      const copy: unknown[] = [];
      for (let index = 0; index < object.length; index++) {
        if (state.left <= 0) {
          copy.push(TRUNCATED);
          break;
        }
        copy.push(copyRedacted(readProperty(object, index), depth + 1, state, underCredential));
      }
      return copy;
    }
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(object)) {
      if (state.left <= 0) {
        define(copy, TRUNCATED, TRUNCATED);
        break;
      }
      const property = readProperty(object, key);
      const credential = underCredential || CREDENTIAL_NAME.test(key);
      const hidden = credential && (typeof property === "string" || typeof property === "number");
      define(copy, redactSecrets(key), hidden ? REDACTED : copyRedacted(property, depth + 1, state, credential));
    }
    return copy;
  } catch {
    // A proxy whose traps throw, a revoked proxy.
    return "[UNREADABLE]";
  } finally {
    state.ancestors.delete(object);
  }
}

function readProperty(object: object, key: string | number): unknown {
  try {
    return (object as Record<string | number, unknown>)[key];
  } catch {
    return "[UNREADABLE]";
  }
}

/** An own property even for `__proto__` (JSON.parse makes those), which assignment would turn into a prototype. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** How far from a cut a secret cut in two can reach: its start is only matched as a whole. */
const CUT_MARGIN_CHARS = 1024;

/**
 * At most `keep` characters from the start of `text`, redacted, reading at most `window`
 * characters of it. A secret that the window cuts in two no longer matches its pattern, and after
 * the secrets before it shrink to "[REDACTED]" it could slide into what is kept; it sits in the
 * last CUT_MARGIN_CHARS of the redacted window, so those are never kept when the text was cut.
 */
export function redactedStart(text: string, keep: number, window = 4 * CUT_MARGIN_CHARS): string {
  for (let read = window; ; read *= 4) {
    if (text.length <= read) return redactSecrets(text).slice(0, keep);
    const redacted = redactSecrets(text.slice(0, read));
    const safe = redacted.slice(0, Math.max(0, redacted.length - CUT_MARGIN_CHARS));
    // Secrets shrank the window below what is asked for: read further (bounded), not show less.
    if (safe.length >= keep || read >= MAX_WINDOW_CHARS) return safe.slice(0, keep);
  }
}

/** The most `redactedStart` reads to fill its excerpt. */
const MAX_WINDOW_CHARS = 256 * CUT_MARGIN_CHARS;

/** What a cut text must keep beyond the part shown, for `redactedStart` to see a secret at the cut whole. */
export const REDACTION_CUT_MARGIN = CUT_MARGIN_CHARS;
