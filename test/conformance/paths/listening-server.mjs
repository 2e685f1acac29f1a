// A server the orchestrator started with `--listen` (WebSocket over TCP or over a Unix socket),
// reached through @codex-rpc/websocket. `webSocketOptions` picks the constructor (ws on Node 20;
// left out where the runtime has a global WebSocket).
import { openWebSocketTransport } from "@codex-rpc/websocket";
import { startListeningServer } from "../control-client.mjs";

/** @param {import("../conformance-config.mjs").ConformanceConfig} config @param {"ws" | "unix"} listen */
export function listeningServerStarter(config, listen, webSocketOptions = {}) {
  return async (scope) => {
    const { url, socketPath, pid } = await startListeningServer(config, scope, listen);
    const transport = await openWebSocketTransport(listen === "unix" ? { socketPath, ...webSocketOptions } : { url, ...webSocketOptions });
    return { transport, pid };
  };
}
