#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// The web console, offline: the relay spawns the real codex app-server wired to the bundled mock
// model and serves the console (packages/relay/console, built by `pnpm build`). Open the printed
// URL: the token is in its #fragment, which the browser never sends to a server.
//
//   node examples/web-console.mjs [--port 4510]
//
// The mock model answers from its script, in order, whatever you type: 1st prompt, it reasons and
// asks to run `ls -1` (an approval in the page), then streams an answer; 2nd, it adds a file with a
// patch (a file-change approval and its diff); later prompts get a short answer each. Ctrl-C stops
// the relay and the app-server. For your own codex and model: `npx @codex-rpc/relay --open`.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startRelay } from "@codex-rpc/relay";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";

const { values } = parseArgs({ options: { port: { type: "string", default: "0" } } });
const consoleDir = fileURLToPath(new URL("../packages/relay/console/", import.meta.url));
const patch = "*** Begin Patch\n*** Add File: hello.txt\n+Hello from the web console.\n*** End Patch";

const provider = await MockResponsesProvider.start({
  script: [
    reply.combined(
      reply.reasoning({ summary: "The user wants to know what is in the workspace; listing it first.", chunks: 4 }),
      reply.execCommand({ cmd: "ls -1" }),
    ),
    reply.text("The workspace holds two files: README.md and notes.txt.", { chunks: 10 }),
    reply.execCommand({ cmd: `apply_patch <<'EOF'\n${patch}\nEOF` }),
    reply.text("I added hello.txt.", { chunks: 4 }),
    ...Array.from({ length: 20 }, (_, i) => reply.text(`Mock answer ${i + 1}: the scripted model has nothing more to say.`, { chunks: 6 })),
  ],
});
const home = await createCodexHome({ provider });
const workspace = join(home.dir, "workspace");
await mkdir(workspace);
await writeFile(join(workspace, "README.md"), "# A workspace\n");
await writeFile(join(workspace, "notes.txt"), "nothing yet\n");

const relay = await startRelay({
  upstream: { spawn: { cwd: workspace, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env } } },
  port: Number(values.port),
  consoleDir,
});
console.log(`console: http://127.0.0.1:${relay.port}/#token=${relay.token}`);
console.log("(offline: the real codex app-server with the bundled mock model; Ctrl-C to stop)");

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await relay.close();
  await provider.close();
  await home.cleanup();
  process.exit(0);
}
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
