// Connecting to the relay: discovery (`/.well-known/codex-rpc-relay`), then a CodexClient over the
// WebSocket transport's browser entry (`openRelayTransport`: the token offered as the subprotocol
// `codex-rpc.token.<token>` beside `codex-rpc.v1`, never in the URL), reconnecting (with thread
// resume) when the connection drops.
import { type ApprovalPolicy, CodexClient } from "@codex-rpc/core";
import { openRelayTransport, RELAY_DISCOVERY_PATH } from "@codex-rpc/websocket";
import type { RelayTarget } from "./relay-target.js";

interface Discovery {
  readonly ws: string;
}

/** Why the console could not connect, in words for the page. */
export class ConsoleConnectError extends Error {
  constructor(
    message: string,
    readonly reason: "no-token" | "discovery-refused" | "refused",
  ) {
    super(message);
  }
}

/** The discovery document, or undefined when the relay refused it (a foreign origin: the browser only says the fetch failed). */
async function discover(relayBase: string): Promise<Discovery | undefined> {
  try {
    const response = await fetch(`${relayBase}${RELAY_DISCOVERY_PATH}`, { cache: "no-store", credentials: "omit" });
    return response.ok ? ((await response.json()) as Discovery) : undefined;
  } catch {
    return undefined;
  }
}

export interface ConnectedConsole {
  readonly client: CodexClient;
  readonly wsUrl: string;
}

function noTokenMessage(target: RelayTarget): string {
  const printed = "open the URL codex-rpc-relay printed (it ends in #token=…) or run codex-rpc-relay --open again";
  if (target.codeFailed === "refused")
    return `No token: the relay refused this page's one-time code (a #code=… from --open works once, for 60 s, and this one was used or has expired): ${printed}.`;
  if (target.codeFailed === "unreachable")
    return `No token: the relay at ${target.relayBase} could not be asked for this page's one-time code (is it running?): ${printed}.`;
  return "No token: open the URL codex-rpc-relay printed (it ends in #token=…); a #code=… from --open works once, for 60 s.";
}

export async function connectToRelay(target: RelayTarget, approvals: ApprovalPolicy): Promise<ConnectedConsole> {
  if (target.token === undefined) throw new ConsoleConnectError(noTokenMessage(target), "no-token");
  const discovery = await discover(target.relayBase);
  // Without discovery, try the relay's socket where it would be, so the refusal is the relay's own.
  const ws = discovery?.ws ?? `${target.relayBase.replace(/^http/, "ws")}/`;
  const token = target.token;
  try {
    const client = await CodexClient.connect(() => openRelayTransport({ url: ws, token }), {
      clientInfo: { name: "codex_rpc_web_console", title: "codex-rpc web console", version: "0.1.0" },
      approvals,
      reconnect: { maxAttempts: 40, initialDelayMs: 200, maxDelayMs: 3000 },
    });
    return { client, wsUrl: ws };
  } catch (error) {
    // A browser shows a refused upgrade (403 origin, 401 token, 400 token in URL) only as close 1006.
    // The discovery document tells them apart: refused, the relay does not allow this origin;
    // answered, the origin is allowed, so it was the token.
    if (discovery === undefined) {
      throw new ConsoleConnectError(`Refused: the relay at ${target.relayBase} does not allow this page's origin (${location.origin}).`, "discovery-refused");
    }
    const detail = error instanceof Error ? error.message : String(error);
    throw new ConsoleConnectError(
      `Refused: the relay allows this page's origin but did not accept its token (a relay makes a new one each time it starts: open the URL it printed). ${detail}`,
      "refused",
    );
  }
}
