#!/usr/bin/env node
import { main } from "../dist/cli.js";

// `codex-rpc-gen diff … | head` closes the pipe early; that is not a failure.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

// Ctrl-C / SIGTERM must not kill the process mid-step: the work is synchronous (spawnSync, sync fs),
// and dying there leaves a temporary npm prefix (with the project's .npmrc, auth and all) or an
// `.out.staging-…` folder behind. A handler keeps the process alive; npm, in the same process group,
// gets the signal and ends, the step fails or finishes and cleans up after itself, and once main
// returns the exit code says the process was interrupted (128 + the signal's number).
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 };
let interrupted;
for (const signal of Object.keys(SIGNAL_EXIT_CODES)) {
  process.on(signal, () => {
    interrupted ??= signal;
  });
}

const code = await main(process.argv.slice(2));
// A signal that came during the synchronous work reaches its handler only once the event loop polls
// again (in practice within two turns): give it a few.
for (let turn = 0; turn < 5 && !interrupted; turn++) await new Promise((resolve) => setTimeout(resolve, 5));
if (interrupted) {
  process.stderr.write(`codex-rpc-gen: interrupted (${interrupted})\n`);
  process.exitCode = SIGNAL_EXIT_CODES[interrupted];
} else {
  process.exitCode = code;
}
