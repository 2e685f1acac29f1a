// Node (20 under vitest) over stdio: @codex-rpc/stdio spawns the server.
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { nodeProcess } from "./node-process.mjs";
import { runStdioPath } from "./stdio-path.mjs";

await runStdioPath(spawnCodexAppServer, nodeProcess);
