import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** The WebSocket subprotocol prefix a page presents the token with: `codex-rpc.token.<token>`. */
export const TOKEN_SUBPROTOCOL_PREFIX = "codex-rpc.token.";

/** The subprotocol the relay selects when the page offers it (so the token is not echoed back). */
export const RELAY_SUBPROTOCOL = "codex-rpc.v1";

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
