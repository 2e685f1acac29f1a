import { isIP } from "node:net";

/** Whether a host to bind is a loopback address (or `localhost`). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (isIP(bare) === 6) return bare === "::1" || bare.startsWith("::ffff:127.");
  return false;
}

/** An origin in its serialized form (`scheme://host[:port]`, lower case, no path), or undefined when it is not one. */
export function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    if (url.origin === "null") return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a request's `Origin` header is allowed: absent (not a browser: a Node or CLI client,
 * which the token still gates) or exactly one of the allowed origins. `"null"` (sandboxed frames,
 * `file:` pages) is never allowed.
 */
export function originAllowed(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  const normalized = normalizeOrigin(origin);
  return normalized !== undefined && allowed.has(normalized);
}
