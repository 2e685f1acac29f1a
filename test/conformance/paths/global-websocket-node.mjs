// Node 22 or Bun over WebSocket, with the runtime's global WebSocket (no constructor passed).
import { runConformanceCases } from "../cases.mjs";
import { listeningServerStarter } from "./listening-server.mjs";
import { nodeProcess } from "./node-process.mjs";

const config = nodeProcess.readConfig();
if (typeof globalThis.WebSocket !== "function") throw new Error("this runtime has no global WebSocket");
await runConformanceCases({ config, ...nodeProcess, startServer: listeningServerStarter(config, "ws") });
nodeProcess.exit(0);
