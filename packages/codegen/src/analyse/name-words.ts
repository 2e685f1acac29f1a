/**
 * The lower-case words of a name or method segment: `gatewayOAuth` → gateway, o, auth;
 * `GatewayOAuthReadResponse` → gateway, o, auth, read, response. Both sides split the same way,
 * so an acronym's odd split does not matter when they are compared.
 */
export function nameWords(name: string): string[] {
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g) ?? []).map((word) => word.toLowerCase());
}

/** `account/gatewayOAuth/read` → Account, GatewayOAuth, Read: each segment as a type name starts. */
export function methodSegments(method: string): string[] {
  return method
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => segment.charAt(0).toUpperCase() + segment.slice(1));
}
