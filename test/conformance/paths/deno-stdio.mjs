// Deno over stdio: @codex-rpc/deno spawns the server with Deno.Command.
import { spawnCodexAppServer } from "@codex-rpc/deno";
import { runConformanceCases } from "../cases.mjs";
import { denoProcess } from "./deno-process.mjs";

const config = denoProcess.readConfig();
await runConformanceCases({
  config,
  ...denoProcess,
  async startServer(scope) {
    const transport = await spawnCodexAppServer({ codexPath: config.codexPath, env: config.scopes[scope].env, cwd: config.workspace });
    return { transport, pid: transport.pid };
  },
});
denoProcess.exit(0);
