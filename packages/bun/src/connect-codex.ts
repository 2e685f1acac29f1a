import type { CodexClient, CodexClientOptions, DefaultProtocolTypes, ProtocolTypesShape } from "@codex-rpc/core";
import { connectSpawned } from "@codex-rpc/core/process";
import { spawnCodexAppServer, type SpawnCodexAppServerOptions } from "./spawn-codex-app-server.js";

/**
 * How `connectCodex` starts the server and what the client does, in one flat object: the two
 * option sets share no name, and `signal` guards both the start and the handshake.
 */
export type ConnectCodexOptions<T extends ProtocolTypesShape = DefaultProtocolTypes> = SpawnCodexAppServerOptions & CodexClientOptions<T>;

/**
 * The common case in one call: starts `codex app-server` and connects a client to it. Closing the
 * client (or `await using` it) ends the server. With `reconnect`, a server that dies is started
 * again. The same as `CodexClient.connect(await spawnCodexAppServer(options), options)`.
 *
 * @throws what `spawnCodexAppServer` and `CodexClient.connect` throw; on a failed handshake
 *   (or an aborted `signal`) the server is ended first.
 */
export function connectCodex<T extends ProtocolTypesShape = DefaultProtocolTypes>(options: ConnectCodexOptions<T> = {}): Promise<CodexClient<T>> {
  return connectSpawned<SpawnCodexAppServerOptions, T>(spawnCodexAppServer, options);
}
