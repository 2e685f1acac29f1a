// Node (20 under vitest) over stdio: @codex-rpc/stdio spawns the server.
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { runConformanceCases } from "../cases.mjs";
import { nodeProcess } from "./node-process.mjs";

const config = nodeProcess.readConfig();
await runConformanceCases({
  config,
  ...nodeProcess,
  async startServer(scope) {
    const transport = await spawnCodexAppServer({ codexPath: config.codexPath, env: config.scopes[scope].env, cwd: config.workspace });
    return { transport, pid: transport.pid };
  },
});
nodeProcess.exit(0);
