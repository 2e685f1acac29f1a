// Node 20 over WebSocket: Node 20 has no global WebSocket, so the `ws` package supplies one.
import WebSocket from "ws";
import { runConformanceCases } from "../cases.mjs";
import { listeningServerStarter } from "./listening-server.mjs";
import { nodeProcess } from "./node-process.mjs";

const config = nodeProcess.readConfig();
await runConformanceCases({ config, ...nodeProcess, startServer: listeningServerStarter(config, "ws", { WebSocket }) });
nodeProcess.exit(0);
