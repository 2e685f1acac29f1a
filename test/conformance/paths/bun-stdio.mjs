// Bun over stdio: @codex-rpc/bun spawns the server with Bun.spawn.
import { spawnCodexAppServer } from "@codex-rpc/bun";
import { nodeProcess } from "./node-process.mjs";
import { runStdioPath } from "./stdio-path.mjs";

await runStdioPath(spawnCodexAppServer, nodeProcess);
