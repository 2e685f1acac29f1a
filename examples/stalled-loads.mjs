#!/usr/bin/env node
// @ts-check (type-checked by the root tsconfig.json, part of `pnpm typecheck`)
// codex-rpc when a chunk never arrives: core loads its rarely-used parts on demand (`import()`),
// and in a browser such a load can stall for ever (a proxy, a dropped connection, a service
// worker). Here a Node module hook stalls three of them — the file contents of `client.fs`, the
// runner of `client.exec`, `thread.rollback()` — and each call still settles: by its timeout, by
// its AbortSignal, by the client's close.
//
//   node examples/stalled-loads.mjs   offline: a throwaway CODEX_HOME, the bundled mock model
//                                     provider (no model is asked anything), a temporary workspace
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CodexClient } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome } from "@codex-rpc/testing";

// The stall: loading these modules of core never finishes (what a stalled chunk fetch looks like).
const STALL = /\/core\/dist\/(client\/fs-files|session\/command-run|session\/rollback)\.js$/;
const hooks = `export function load(url, context, next) {
  return ${STALL}.test(url) ? new Promise(() => {}) : next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);

/** @param {Promise<unknown>} call */
const outcome = (call) =>
  call.then(
    () => "resolved",
    (/** @type {{ name?: string, code?: string }} */ error) => `${error.name} (${error.code})`,
  );

/** @type {(() => Promise<unknown>)[]} */
const cleanups = [];
try {
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-stalled-loads-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  await writeFile(join(workspace, "notes.txt"), "never read\n");
  const provider = await MockResponsesProvider.start({ script: [] });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());
  const client = await CodexClient.connect(await spawnCodexAppServer({ env: home.env, cwd: workspace }), {
    clientInfo: { name: "codex-rpc-stalled-loads", title: "codex-rpc stalled-loads example", version: "0.1.0" },
    requestTimeoutMs: 2_000,
  });
  cleanups.unshift(() => client.close());

  // 1. The call's timeout: `requestTimeoutMs` (2 s here) bounds the load as it bounds the reply.
  const started = Date.now();
  console.log(`fs.readFile: ${await outcome(client.fs.readFile(join(workspace, "notes.txt")))} within the timeout: ${Date.now() - started < 3_000}`);

  // 2. The call's signal: `exec`'s result and exit reject, and `command/exec` never goes out.
  const controller = new AbortController();
  const command = client.exec(["echo", "never run"], { cwd: workspace, signal: controller.signal });
  setTimeout(() => controller.abort(), 100);
  console.log(`exec result: ${await outcome(command.result)}, exit: ${await outcome(command.exit)}`);

  // 3. The client's close: a rollback waiting on its module rejects with ConnectionClosedError.
  const thread = await client.startThread({ cwd: workspace });
  const rollback = outcome(thread.rollback());
  setTimeout(() => void client.close(), 100);
  console.log(`thread.rollback after close: ${await rollback}`);
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}
