#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// codex-rpc commands and files: a command whose output streams as it runs, `cat` fed through
// stdin, a long command terminated, a file written and read back through the server's fs/*
// methods, and a watch that sees a file appear.
//
//   node examples/commands.mjs     offline: a throwaway CODEX_HOME, the bundled mock model provider
//                                  (no model is asked anything), a temporary workspace
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { filter, firstValueFrom, timeout } from "rxjs";
import { CodexClient } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome } from "@codex-rpc/testing";

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-commands-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  const provider = await MockResponsesProvider.start({ script: [] });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());
  const client = await CodexClient.connect(await spawnCodexAppServer({ env: home.env, cwd: workspace }), {
    clientInfo: { name: "codex-rpc-commands", title: "codex-rpc commands example", version: "0.1.0" },
  });
  cleanups.unshift(() => client.close());

  // 1. Output streams as the command writes it, tagged stdout / stderr.
  const counting = client.exec(["sh", "-c", "for i in 1 2 3; do echo tick $i; sleep 0.1; done; echo done >&2; exit 7"], { cwd: workspace });
  for await (const chunk of counting) process.stdout.write(`[${chunk.stream}] ${chunk.text}`);
  console.log(`exit code ${(await counting.exit).exitCode}`);

  // 2. stdin: `cat` echoes what is written, until stdin is closed.
  const cat = client.exec(["cat"], { cwd: workspace, streamStdin: true });
  await cat.write("hello from stdin\n");
  await cat.end();
  console.log(`cat said: ${JSON.stringify((await cat.exit).stdout)}`);

  // 3. A command that would run for a minute, terminated.
  const sleeper = client.exec(["sleep", "60"], { cwd: workspace });
  setTimeout(() => void sleeper.terminate(), 200);
  console.log(`sleep terminated: exit code ${(await sleeper.exit).exitCode}`);

  // 4. Files on the server's machine: write, read back, list.
  const notes = join(workspace, "notes.txt");
  await client.fs.writeFile(notes, "written through fs/writeFile ✓\n");
  console.log(`read back: ${JSON.stringify(await client.fs.readTextFile(notes))}`);
  console.log(`workspace holds: ${(await client.fs.readDirectory(workspace)).map((entry) => entry.fileName).join(", ")}`);

  // 5. A watch: codex reports the file written behind its back; unsubscribing ends the watch.
  const seen = firstValueFrom(
    client.fs.watch(workspace).pipe(
      filter((change) => change.changedPaths.some((path) => path.endsWith("later.txt"))),
      timeout(10_000),
    ),
  );
  setTimeout(() => void writeFile(join(workspace, "later.txt"), "x"), 300);
  const change = await seen;
  console.log(`watch saw: ${change.changedPaths.map((path) => path.slice(workspace.length + 1)).join(", ")}`);
} catch (error) {
  console.error(`commands example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}
