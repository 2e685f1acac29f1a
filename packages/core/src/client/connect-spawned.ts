import type { Transport } from "../transport/transport.js";
import { CodexClient, type CodexClientOptions } from "./codex-client.js";
import type { DefaultProtocolTypes, ProtocolTypesShape } from "../rpc/protocol-types.js";

/**
 * What every runtime's `connectCodex` does: starts the server with the runtime's `spawn` and
 * connects a client to it, with one options object for both. With `reconnect`, a server that dies
 * is started again. `signal` guards the first start and handshake only: a restart after a drop is
 * the open client's business (an aborted signal must not make every reconnect fail).
 */
export async function connectSpawned<S extends { readonly signal?: AbortSignal }, T extends ProtocolTypesShape = DefaultProtocolTypes>(
  spawn: (options: S) => Promise<Transport>,
  options: S & CodexClientOptions<T>,
): Promise<CodexClient<T>> {
  const { signal: _firstStartOnly, ...restart } = options;
  let restarting = false;
  const start = () => {
    const spawnOptions = (restarting ? restart : options) as S;
    restarting = true;
    return spawn(spawnOptions);
  };
  return CodexClient.connect<T>(options.reconnect ? start : await start(), options);
}
