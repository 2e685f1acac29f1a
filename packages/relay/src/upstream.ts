import type { Transport } from "@codex-rpc/core/transport";
import { type SpawnCodexAppServerOptions, spawnCodexAppServer } from "@codex-rpc/stdio";
import { openWebSocketTransport } from "@codex-rpc/websocket";

/**
 * Where the relay's app-server is: one it spawns (stdio; the default), one already running
 * (`codex app-server --listen ws://…` or `unix://…`), or any Transport you opened.
 */
export type RelayUpstream =
  | { readonly spawn: SpawnCodexAppServerOptions }
  | { readonly url: string; readonly token?: string }
  | { readonly socketPath: string }
  | { readonly transport: Transport };

/** The transport to the app-server, and the spawned process's id (spawn only). */
export async function openUpstream(upstream: RelayUpstream = { spawn: {} }): Promise<{ transport: Transport; pid: number | undefined }> {
  if ("transport" in upstream) return { transport: upstream.transport, pid: undefined };
  if ("spawn" in upstream) {
    const transport = await spawnCodexAppServer(upstream.spawn);
    return { transport, pid: transport.pid };
  }
  if ("socketPath" in upstream) return { transport: await openWebSocketTransport({ socketPath: upstream.socketPath }), pid: undefined };
  const options = upstream.token === undefined ? { url: upstream.url } : { url: upstream.url, token: upstream.token };
  return { transport: await openWebSocketTransport(options), pid: undefined };
}
