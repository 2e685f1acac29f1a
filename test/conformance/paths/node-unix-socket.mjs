// Node over a Unix socket: WebSocket framing on `--listen unix://PATH`, reached with `socketPath`.
import { runConformanceCases } from "../cases.mjs";
import { listeningServerStarter } from "./listening-server.mjs";
import { nodeProcess } from "./node-process.mjs";

const config = nodeProcess.readConfig();
await runConformanceCases({ config, ...nodeProcess, startServer: listeningServerStarter(config, "unix") });
nodeProcess.exit(0);
