#!/usr/bin/env node
import { main } from "../dist/cli.js";

// `codex-rpc-gen diff … | head` closes the pipe early; that is not a failure.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

// No SIGINT/SIGTERM handler: the work is synchronous (spawnSync, sync fs), so a handler would run only
// once the running child ends, and a signal must end the process at once. What an interrupted run
// leaves behind (a temporary npm prefix, a staging folder) carries its pid; the next run removes it.
process.exitCode = await main(process.argv.slice(2));
