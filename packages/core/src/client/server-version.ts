/**
 * What codex version a server runs, from the `userAgent` of its `initialize` result, which starts
 * with `<clientInfo.name>/<codex version>` (e.g. `my-app/0.169.0 (Debian 12; x86_64) …`). codex
 * puts the name in as it was sent, spaces and slashes too (`My App/0.160.0 (…`), so the name the
 * client sent is skipped when the agent starts with it; else the name ends at the first `/`.
 */
export function serverVersionOf(userAgent: unknown, clientName?: string): string | undefined {
  if (typeof userAgent !== "string") return undefined;
  const rest = clientName !== undefined && userAgent.startsWith(`${clientName}/`) ? userAgent.slice(clientName.length) : userAgent.replace(/^[^/\s]+/, "");
  return /^\/(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)(?:[\s(]|$)/.exec(rest)?.[1];
}

/**
 * codex answers a method it does not know with -32600 "unknown variant `METHOD`, expected one of …"
 * (not -32601): this tells that apart from other invalid requests.
 */
export function isUnknownMethodError(rpcCode: number, rpcMessage: string, method: string): boolean {
  return (
    (rpcCode === -32600 || rpcCode === -32601) && (rpcMessage.includes(`unknown variant \`${method}\``) || (rpcCode === -32601 && rpcMessage.includes(method)))
  );
}
