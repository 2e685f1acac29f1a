// The secrets a WebSocket transport holds, removed by value from everything the server sends: a
// server may echo the token it was given (in a close reason, an error reply, any message). Loaded
// on demand by openWebSocketTransport when there is a token or a subprotocol, before the socket
// opens, so that no frame arrives before it; a connection without either never loads it.
import { RELAY_SUBPROTOCOL, TOKEN_SUBPROTOCOL_PREFIX } from "./relay-protocol.js";

const REDACTED = "[REDACTED]";

/** Shorter pieces are left alone: replacing them would mangle ordinary text. */
const MIN_SECRET_CHARS = 8;

/** What removes a transport's secrets from a text, and from a frame (JSON text) keeping it JSON. */
export interface SecretRedactor {
  text(text: string): string;
  frame(json: string): string;
}

/**
 * The redactor of a transport with this `token` and these subprotocols: the token, every
 * subprotocol but the relay's public `codex-rpc.v1` (a relay token travels in one), and the relay
 * token alone; undefined when none has 8 characters or more.
 */
export function secretRedactor(token: string | undefined, protocols: readonly string[] | undefined): SecretRedactor | undefined {
  const candidates = token === undefined ? [] : [token];
  for (const protocol of protocols ?? []) {
    if (protocol === RELAY_SUBPROTOCOL) continue;
    candidates.push(protocol);
    if (protocol.startsWith(TOKEN_SUBPROTOCOL_PREFIX)) candidates.push(protocol.slice(TOKEN_SUBPROTOCOL_PREFIX.length));
  }
  // The longest first: one that holds another is replaced whole.
  const secrets = [...new Set(candidates)].filter((secret) => secret.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return undefined;
  // In JSON text a secret appears escaped (a `"` or `\` in a bearer token, a control character cannot be in one).
  const escaped = secrets.map((secret) => JSON.stringify(secret).slice(1, -1));
  const text = (value: string): string => replaceAll(value, secrets);
  return {
    text,
    frame(json) {
      const redacted = replaceAll(json, escaped);
      if (redacted === json) return json;
      try {
        JSON.parse(redacted);
        return redacted;
      } catch {
        // The replacement cut through an escape sequence (`\n` before a secret starting with `n`):
        // redact the message's strings instead. A frame that was not JSON stays as replaced.
        try {
          return JSON.stringify(redactStrings(JSON.parse(json), text));
        } catch {
          return redacted;
        }
      }
    },
  };
}

function replaceAll(value: string, secrets: readonly string[]): string {
  let redacted = value;
  for (const secret of secrets) if (redacted.includes(secret)) redacted = redacted.split(secret).join(REDACTED);
  return redacted;
}

/** A copy of a parsed JSON value with every string, keys included, passed through `redact`. */
function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // An own property even for `__proto__`, which JSON.parse makes and assignment would turn into a prototype.
    Object.defineProperty(copy, redact(key), { value: redactStrings(item, redact), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}
