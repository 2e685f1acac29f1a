// Review 6 F5, against the real codex: startRelay whose listen fails (the port is taken) after it
// spawned the app-server ends that app-server before it rejects: its PID is gone.
import { execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { afterEach, expect, it } from "vitest";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { createCodexHome, MockResponsesProvider } from "@codex-rpc/testing";
import { startRelay } from "../src/index.js";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** This process's codex children (the spawned app-server), by PID. */
const codexChildren = () =>
  execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)])
    .toString()
    .split("\n")
    .filter((line) => /codex/.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]));

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("a port already in use: startRelay rejects with EADDRINUSE and the codex it spawned is gone", async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
  cleanups.push(() => blocker.close());
  const port = (blocker.address() as { port: number }).port;
  const provider = await MockResponsesProvider.start({ script: [] });
  const home = await createCodexHome({ provider });
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const before = new Set(codexChildren());
  const started = startRelay({
    port,
    upstream: { spawn: { codexPath: pinnedCodexBinary(), env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env } } },
  });
  await expect(started).rejects.toThrow(/EADDRINUSE/);
  const spawned = codexChildren().filter((pid) => !before.has(pid));
  // Killed whatever the outcome, so that a failure here leaves nothing running.
  cleanups.push(() => spawned.filter(alive).forEach((pid) => process.kill(pid, "SIGKILL")));
  expect(spawned.filter(alive)).toEqual([]);
}, 30_000);
