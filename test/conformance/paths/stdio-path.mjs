// What every stdio path does: the adapter's spawnCodexAppServer starts a fresh server per case.
import { runConformanceCases } from "../cases.mjs";

/**
 * Runs the cases over stdio, then exits.
 * @param {(options: object) => Promise<{ pid: number }>} spawnCodexAppServer the adapter's
 * @param {typeof import("./node-process.mjs").nodeProcess} host the runtime's process host (node-process.mjs, deno-process.mjs)
 */
export async function runStdioPath(spawnCodexAppServer, host) {
  const config = host.readConfig();
  await runConformanceCases({
    config,
    ...host,
    async startServer(scope) {
      const transport = await spawnCodexAppServer({ codexPath: config.codexPath, env: config.scopes[scope].env, cwd: config.workspace });
      return { transport, pid: transport.pid };
    },
  });
  host.exit(0);
}
