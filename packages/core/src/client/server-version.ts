/**
 * What codex version a server runs, from the `userAgent` of its `initialize` result, which starts
 * with `<clientInfo.name>/<codex version>` (e.g. `my-app/0.169.0 (Debian 12; x86_64) …`). codex
 * puts the name in as it was sent, spaces and slashes too (`My App/0.160.0 (…`), so the name the
 * client sent is skipped when the agent starts with it. An app-server shared over `--listen` keeps
 * the name of the first client that initialized it (measured on 0.169.0: "other" got `My App/0.169.0
 * (…) (other; 1)`), so otherwise the first `/<version>` that ends a word is it.
 */
export function serverVersionOf(userAgent: unknown, clientName?: string): string | undefined {
  if (typeof userAgent !== "string") return undefined;
  const own = clientName !== undefined && userAgent.startsWith(`${clientName}/`) ? VERSION.exec(userAgent.slice(clientName.length)) : null;
  return (own?.index === 0 ? own : VERSION.exec(userAgent))?.[1];
}

const VERSION = /\/(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)(?=[\s(]|$)/;

/**
 * codex answers a method it does not know with -32600 "unknown variant `METHOD`, expected one of …"
 * (not -32601): this tells that apart from other invalid requests.
 */
export function isUnknownMethodError(rpcCode: number, rpcMessage: string, method: string): boolean {
  return (
    (rpcCode === -32600 || rpcCode === -32601) && (rpcMessage.includes(`unknown variant \`${method}\``) || (rpcCode === -32601 && rpcMessage.includes(method)))
  );
}
