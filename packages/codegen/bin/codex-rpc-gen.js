#!/usr/bin/env node
import { main } from "../dist/cli.js";

// `codex-rpc-gen diff … | head` closes the pipe early; that is not a failure.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
