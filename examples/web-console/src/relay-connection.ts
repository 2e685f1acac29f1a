// Connecting to the relay: discovery (`/.well-known/codex-rpc-relay`), then a CodexClient over the
// WebSocket transport's browser entry, the token offered as the subprotocol `codex-rpc.token.<token>`
// beside `codex-rpc.v1`, reconnecting (with thread resume) when the connection drops.
import { type ApprovalPolicy, CodexClient } from "@codex-rpc/core";
import { openWebSocketTransport, type WebSocketConstructor } from "@codex-rpc/websocket";
import type { RelayTarget } from "./relay-target.js";

interface Discovery {
  readonly ws: string;
  readonly subprotocol: string;
  readonly tokenSubprotocolPrefix: string;
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

const FALLBACK: Omit<Discovery, "ws"> = { subprotocol: "codex-rpc.v1", tokenSubprotocolPrefix: "codex-rpc.token." };

/** The discovery document, or undefined when the relay refused it (a foreign origin: the browser only says the fetch failed). */
async function discover(relayBase: string): Promise<Discovery | undefined> {
  try {
    const response = await fetch(`${relayBase}/.well-known/codex-rpc-relay`, { cache: "no-store", credentials: "omit" });
    return response.ok ? ((await response.json()) as Discovery) : undefined;
  } catch {
    return undefined;
  }
}

/** A WebSocket constructor that offers the relay's subprotocol and the token. */
function relaySocket(protocols: readonly string[]): WebSocketConstructor {
  return class extends WebSocket {
    constructor(url: string | URL) {
      super(url, [...protocols]);
    }
  } as unknown as WebSocketConstructor;
}

export interface ConnectedConsole {
  readonly client: CodexClient;
  readonly wsUrl: string;
}

export async function connectToRelay(target: RelayTarget, approvals: ApprovalPolicy): Promise<ConnectedConsole> {
  if (target.token === undefined) {
    throw new ConsoleConnectError("No token: open the URL codex-rpc-relay --open printed (it ends in #token=…).", "no-token");
  }
  const discovery = await discover(target.relayBase);
  // Without discovery, try the relay's socket where it would be, so the refusal is the relay's own.
  const { ws, subprotocol, tokenSubprotocolPrefix } = discovery ?? { ...FALLBACK, ws: `${target.relayBase.replace(/^http/, "ws")}/` };
  const WebSocketWithToken = relaySocket([subprotocol, `${tokenSubprotocolPrefix}${target.token}`]);
  try {
    const client = await CodexClient.connect(() => openWebSocketTransport({ url: ws, WebSocket: WebSocketWithToken }), {
      clientInfo: { name: "codex_rpc_web_console", title: "codex-rpc web console", version: "0.1.0" },
      approvals,
      reconnect: { maxAttempts: 40, initialDelayMs: 200, maxDelayMs: 3000 },
    });
    return { client, wsUrl: ws };
  } catch (error) {
    // A browser shows a refused upgrade (403 origin, 401 token, 400 token in URL) only as close 1006.
    if (discovery === undefined) {
      throw new ConsoleConnectError(`Refused: the relay at ${target.relayBase} does not allow this page's origin (${location.origin}).`, "discovery-refused");
    }
    throw new ConsoleConnectError(
      `Refused: the relay did not accept the connection (wrong or old token?). ${error instanceof Error ? error.message : String(error)}`,
      "refused",
    );
  }
}
