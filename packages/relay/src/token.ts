import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { TOKEN_SUBPROTOCOL_PREFIX } from "@codex-rpc/websocket";

// The subprotocol names have one source, @codex-rpc/websocket's browser-safe code, which pages import.
export { RELAY_SUBPROTOCOL, TOKEN_SUBPROTOCOL_PREFIX } from "@codex-rpc/websocket";

/** A fresh launch token: 32 random bytes, base64url (valid in a subprotocol name). */
export function createRelayToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Whether `presented` is the token, in constant time: both are hashed first, so the comparison
 * takes the same time whatever their lengths and wherever they differ.
 */
export function tokenMatches(presented: string, token: string): boolean {
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(token).digest();
  return timingSafeEqual(a, b);
}

/** The token among the offered subprotocols (`Sec-WebSocket-Protocol`), or undefined. */
export function tokenFromSubprotocols(protocols: Iterable<string>): string | undefined {
  for (const protocol of protocols) {
    if (protocol.startsWith(TOKEN_SUBPROTOCOL_PREFIX)) return protocol.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
  }
  return undefined;
}
