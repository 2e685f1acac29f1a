import { redactSecrets } from "@codex-rpc/core/transport";
import { redactUrl, WebSocketConnectError } from "./connect-failure.js";

// Why an opening handshake failed, found out after it did: loaded on demand (import()) by the
// transport when a connection cannot be opened, so a page that connects does not carry it.

export interface ConnectFailure {
  readonly url: string;
  /** What the runtime's error event said, if anything. */
  readonly detail: string | undefined;
  readonly sentToken: boolean;
  /** It offered @codex-rpc/relay's subprotocols: a refusal is the relay's, and the probe asks its discovery document. */
  readonly relay?: boolean;
  readonly timedOut: boolean;
  /** The caller aborted the opening: nothing to find out. */
  readonly aborted: boolean;
  /** Where the server's health endpoint is, to tell "nothing there" from "refused" (none for Unix sockets). */
  readonly readyzUrl: string | undefined;
  readonly fetch: ((url: string, init: { signal: AbortSignal }) => Promise<{ ok: boolean; status: number }>) | undefined;
}

/** A status the runtime put in its error text: `ws` says "Unexpected server response: 401", Bun "Expected 101 status code: 401", Deno "Invalid status code: 401". */
const STATUS_IN_DETAIL = /(?:response|status code):\s*([1-5]\d\d)\b/i;

/**
 * Turns a failed opening handshake into an error that says what to do. Runtimes differ in what
 * they reveal: most name the HTTP status; where none does, a look at the server's `/readyz`
 * tells an absent server from one that refused the upgrade (codex answers a wrong token 401).
 */
export async function describeConnectFailure(failure: ConnectFailure): Promise<WebSocketConnectError> {
  const url = redactUrl(failure.url);
  const detail = failure.detail === undefined ? "" : ` (${redactSecrets(failure.detail)})`;
  const status = failure.detail === undefined ? undefined : Number(STATUS_IN_DETAIL.exec(failure.detail)?.[1] ?? NaN) || undefined;
  if (failure.relay && (status === 400 || status === 401 || status === 403)) {
    const code = status === 400 ? "CONNECT_FAILED" : "UNAUTHORIZED";
    return new WebSocketConnectError(code, `WebSocket connection to ${url} refused by the relay with HTTP ${status}: ${RELAY_REFUSALS[status]}`, url, status);
  }
  if (status === 401 || status === 403) {
    const why =
      status === 403
        ? "the server does not accept this request's Origin (codex answers 403 to any request with an Origin header, which browsers send: connect through @codex-rpc/relay)"
        : failure.sentToken
          ? "the token was rejected"
          : "the server wants a token (it runs with --ws-auth): pass `token`";
    return new WebSocketConnectError("UNAUTHORIZED", `WebSocket connection to ${url} refused with HTTP ${status}: ${why}`, url, status);
  }
  if (failure.aborted) return new WebSocketConnectError("CONNECT_FAILED", `WebSocket connection to ${url} aborted${detail}`, url, status);
  if (failure.timedOut) {
    return new WebSocketConnectError("CONNECT_FAILED", `WebSocket connection to ${url} did not open in time${detail}`, url, status);
  }
  const server = await probe(failure);
  if (failure.relay && status === undefined && (server === "up" || server === 403)) {
    // A browser does not say why an upgrade failed; the relay's discovery document tells an origin it refuses from one it allows.
    const why =
      server === 403
        ? `the relay is up and refuses this origin (its discovery document answered 403): ${RELAY_REFUSALS[403]}`
        : "the relay is up and accepts this origin (its discovery document answered), so it most likely refused the token: use the one it printed at launch (a new one each time it starts)";
    // The discovery document's 403 is the relay's refusal of this origin: the status the runtime hid.
    return new WebSocketConnectError("UNAUTHORIZED", `WebSocket connection to ${url} refused${detail}; ${why}`, url, server === 403 ? 403 : undefined);
  }
  if (server === "up" && status === undefined) {
    // The server is there but refused the upgrade and the runtime does not say how.
    if (failure.sentToken) {
      return new WebSocketConnectError(
        "UNAUTHORIZED",
        `WebSocket connection to ${url} refused${detail}; the server is up (/readyz answered), so the token was most likely rejected`,
        url,
        undefined,
      );
    }
    return new WebSocketConnectError(
      "CONNECT_FAILED",
      `WebSocket connection to ${url} refused${detail}; the server is up (/readyz answered): if it runs with --ws-auth, pass \`token\``,
      url,
      undefined,
    );
  }
  const what = status !== undefined ? `HTTP ${status}` : server === "refused" ? "nothing answered there" : "the opening handshake failed";
  return new WebSocketConnectError("CONNECT_FAILED", `WebSocket connection to ${url} could not be opened: ${what}${detail}`, url, status);
}

/**
 * What the server's `/readyz` (a relay's discovery document) says: up, 403 (a relay refusing the
 * origin), refused (nothing listens), or unknown (cannot ask, or another failure).
 */
async function probe(failure: ConnectFailure): Promise<"up" | 403 | "refused" | "unknown"> {
  if (!failure.readyzUrl || !failure.fetch) return "unknown";
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 2000);
  try {
    const response = await failure.fetch(failure.readyzUrl, { signal: controller.signal });
    if (failure.relay && response.status === 403) return 403;
    return response.status < 500 ? "up" : "unknown";
  } catch (error) {
    return refusedConnection(error) ? "refused" : "unknown";
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a fetch failed because nothing listens: Node says ECONNREFUSED (in `cause`), Deno "Connection refused", Bun "ConnectionRefused". */
function refusedConnection(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Object && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (/refused/i.test(`${String(code)} ${String(message)}`)) return true;
  }
  return false;
}

/** What a relay's refusal means, by HTTP status (see @codex-rpc/relay's upgrade checks). */
const RELAY_REFUSALS = {
  400: "it takes no query and no token in the URL (the token goes in the subprotocol: relayProtocols(token))",
  401: "it did not accept the token (use the one it printed at launch; it changes each time the relay starts)",
  403: "it does not allow this page's origin (start it with --origin <this page's origin>, or allowedOrigins)",
} as const;

/**
 * `ws://host:port/…` → `http://host:port/readyz` (codex's health endpoint; `path` for another
 * one); undefined for other schemes. Without `user:password@`: fetch refuses URLs holding
 * credentials, and they are not its to send.
 */
export function readyzUrlOf(url: string, path = "/readyz"): string | undefined {
  const match = /^(wss?):\/\/([^/?#]+)/i.exec(url);
  if (!match) return undefined;
  const host = match[2]!.slice(match[2]!.lastIndexOf("@") + 1);
  return `${match[1]!.toLowerCase() === "wss" ? "https" : "http"}://${host}${path}`;
}
