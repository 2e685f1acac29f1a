// Bun over stdio: @codex-rpc/bun spawns the server with Bun.spawn.
import { spawnCodexAppServer } from "@codex-rpc/bun";
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
