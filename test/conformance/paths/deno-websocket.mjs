// Deno over WebSocket, with Deno's global WebSocket.
import { runConformanceCases } from "../cases.mjs";
import { denoProcess } from "./deno-process.mjs";
import { listeningServerStarter } from "./listening-server.mjs";

const config = denoProcess.readConfig();
await runConformanceCases({ config, ...denoProcess, startServer: listeningServerStarter(config, "ws") });
denoProcess.exit(0);
