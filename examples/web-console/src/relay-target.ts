// Where the console finds its relay and token. The token comes in the URL's fragment
// (`#token=…`, what `codex-rpc-relay --open` opens): browsers never send a fragment to a server, so
// it is in no request line, access log or Referer. The page takes it out of the address bar at once
// (history.replaceState) and keeps it in sessionStorage, which is this tab's alone and gone when the
// tab closes. `#relay=http://127.0.0.1:4510` points a page served elsewhere (a dev server) at a relay.

export interface RelayTarget {
  /** The relay's HTTP origin: where `/.well-known/codex-rpc-relay` is. */
  readonly relayBase: string;
  /** The launch token, or undefined when the page was given none. */
  readonly token: string | undefined;
}

const STORAGE_KEY = "codex-rpc-console";

export function readRelayTarget(location: Location, history: History, storage: Storage): RelayTarget {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const stored = parseStored(storage.getItem(STORAGE_KEY));
  const token = fragment.get("token") ?? stored?.token;
  const relayBase = fragment.get("relay") ?? stored?.relayBase ?? location.origin;
  if (fragment.has("token") || fragment.has("relay")) {
    storage.setItem(STORAGE_KEY, JSON.stringify({ token, relayBase }));
    history.replaceState(null, "", location.pathname + location.search);
  }
  return { relayBase: relayBase.replace(/\/+$/, ""), token: token ?? undefined };
}

function parseStored(text: string | null): { token?: string; relayBase?: string } | undefined {
  try {
    return text === null ? undefined : (JSON.parse(text) as { token?: string; relayBase?: string });
  } catch {
    return undefined;
  }
}
