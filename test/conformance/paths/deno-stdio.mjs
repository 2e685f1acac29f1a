// Deno over stdio: @codex-rpc/deno spawns the server with Deno.Command.
import { spawnCodexAppServer } from "@codex-rpc/deno";
import { denoProcess } from "./deno-process.mjs";
import { runStdioPath } from "./stdio-path.mjs";

await runStdioPath(spawnCodexAppServer, denoProcess);
