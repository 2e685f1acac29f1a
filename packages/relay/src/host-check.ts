import { isLoopbackHost } from "./origin-policy.js";

/**
 * Whether a request's `Host` header names a relay that listens on loopback. A page served from a
 * name its owner points at 127.0.0.1 (DNS rebinding) is same-origin with the relay for the browser
 * and sends no `Origin` on a plain GET, but its `Host` is its own name: refused before anything
 * else. A request without `Host` (not a browser) passes; so does every name when the relay listens
 * elsewhere (`allowNonLoopback`: the names it is reached by are the user's).
 */
export function hostAllowed(host: string | undefined, listensOnLoopback: boolean): boolean {
  if (!listensOnLoopback || host === undefined) return true;
  return isLoopbackHost(hostnameOf(host));
}

/** `localhost:4510` → `localhost`, `[::1]:4510` → `[::1]`; lower case, without a final dot. */
function hostnameOf(host: string): string {
  const end = host.startsWith("[") ? host.indexOf("]") + 1 : host.lastIndexOf(":");
  const name = (end > 0 ? host.slice(0, end) : host).toLowerCase();
  return name.endsWith(".") ? name.slice(0, -1) : name;
}
