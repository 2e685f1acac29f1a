/**
 * A token given to `startRelay` (option `token`) instead of a fresh one, e.g. so that pages keep
 * working across a restart: it must be as hard to guess as the relay's own (at least 32
 * characters) and valid in a subprotocol name (base64url characters only).
 */
export function checkGivenToken(token: string): string {
  if (!/^[A-Za-z0-9_-]{32,}$/.test(token)) {
    throw new TypeError("startRelay: `token` must be at least 32 characters of A-Z, a-z, 0-9, - and _ (e.g. 32 random bytes in base64url)");
  }
  return token;
}
