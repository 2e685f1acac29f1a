// Where the console finds its relay and token. The token comes in the URL's fragment
// (`#token=…`, what `codex-rpc-relay --open` opens): browsers never send a fragment to a server, so
// it is in no request line, access log or Referer. The page takes it out of the address bar at once
// (history.replaceState) and keeps it in sessionStorage, which is this tab's alone and gone when the
// tab closes. `#relay=http://127.0.0.1:4510` points a page served elsewhere (a dev server) at a relay.
// `codex-rpc-relay --open` gives `#code=…` instead: a one-time code (valid once, for 60 s) the page
// posts to its relay (same origin) for the token, so the token is in no process's argv or history.

export interface RelayTarget {
  /** The relay's HTTP origin: where `/.well-known/codex-rpc-relay` is. */
  readonly relayBase: string;
  /** The launch token, or undefined when the page was given none. */
  readonly token: string | undefined;
  /** A one-time code to exchange for the token (`#code=…`), when the page was given one. */
  readonly code?: string;
  /** Why the page's one-time code gave no token: the relay refused it (used, expired), or it could not be asked. */
  readonly codeFailed?: "refused" | "unreachable";
}

/** Where the relay exchanges a one-time code for the token (@codex-rpc/relay's LOGIN_CODE_PATH). */
const LOGIN_CODE_PATH = "/.well-known/codex-rpc-relay/code";

const STORAGE_KEY = "codex-rpc-console";

export function readRelayTarget(location: Location, history: History, storage: Storage): RelayTarget {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const stored = parseStored(storage.getItem(STORAGE_KEY));
  const token = fragment.get("token") ?? stored?.token;
  const relayBase = fragment.get("relay") ?? stored?.relayBase ?? location.origin;
  const code = fragment.get("code") ?? undefined;
  if (fragment.has("token") || fragment.has("relay")) storage.setItem(STORAGE_KEY, JSON.stringify({ token, relayBase }));
  if (fragment.has("token") || fragment.has("relay") || code !== undefined) history.replaceState(null, "", location.pathname + location.search);
  return { relayBase: relayBase.replace(/\/+$/, ""), token: token ?? undefined, ...(code === undefined ? {} : { code }) };
}

/**
 * The target with its one-time code exchanged for the token (POST to the relay, which answers only
 * its own pages), the token kept in sessionStorage; unchanged when there is no code, and marked
 * `codeFailed` when the relay refused it (used, expired, or not this relay's page) or could not be asked.
 */
export async function redeemLoginCode(target: RelayTarget, storage: Storage): Promise<RelayTarget> {
  if (target.code === undefined) return target;
  try {
    const response = await fetch(`${target.relayBase}${LOGIN_CODE_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: target.code }),
      cache: "no-store",
      credentials: "omit",
    });
    const token = response.ok ? ((await response.json()) as { token?: unknown }).token : undefined;
    if (typeof token !== "string") return { relayBase: target.relayBase, token: target.token, codeFailed: "refused" };
    storage.setItem(STORAGE_KEY, JSON.stringify({ token, relayBase: target.relayBase }));
    return { relayBase: target.relayBase, token };
  } catch {
    return { relayBase: target.relayBase, token: target.token, codeFailed: "unreachable" };
  }
}

function parseStored(text: string | null): { token?: string; relayBase?: string } | undefined {
  try {
    return text === null ? undefined : (JSON.parse(text) as { token?: string; relayBase?: string });
  } catch {
    return undefined;
  }
}
