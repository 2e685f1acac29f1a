export { connectCodex, type ConnectCodexOptions } from "./connect-codex.js";
export { findCodexBinary, type FindCodexBinaryOptions } from "./find-codex-binary.js";
export { spawnCodexAppServer, type SpawnCodexAppServerOptions } from "./spawn-codex-app-server.js";
export { NodeStdioTransport, type NodeStdioTransportOptions } from "./node-stdio-transport.js";
export { nodeDecoding } from "./node-decoding.js";
