// Cancellation and cleanup against the real, pinned codex app-server, offline: a signal aborting
// the handshake (of CodexClient.connect and of connectCodex) and `await using` leave no process
// behind, checked by PID. The turn-level paths (firstValueFrom(text$) leaves the turn running,
// `break` interrupts whoever else listens, a turn's `signal`) are in real-codex-client.test.ts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CodexClient, RequestAbortedError } from "@codex-rpc/core";
import { connectCodex, spawnCodexAppServer } from "@codex-rpc/stdio";
import { MockResponsesProvider, createCodexHome, reply } from "@codex-rpc/testing";
import { isRunning, startedBy } from "./support/process-tree.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A mock model, a CODEX_HOME pointing at it and a workspace: what the server needs to run offline. */
async function offlineCodex(script = [reply.text("Done.", { chunks: 2 })]) {
  const provider = await MockResponsesProvider.start({ script });
  cleanups.push(() => provider.close());
  const home = await createCodexHome({ provider });
  cleanups.push(() => home.cleanup());
  const workspace = await mkdtemp(join(tmpdir(), "codex-rpc-cancellation-"));
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  return { provider, spawn: { env: { PATH: process.env.PATH ?? "", ...home.env }, cwd: workspace }, workspace };
}

describe("cancellation and cleanup against the real codex app-server", () => {
  it("a signal aborting CodexClient.connect() mid-handshake rejects with RequestAbortedError and ends the server", async () => {
    const { spawn } = await offlineCodex();
    const transport = await spawnCodexAppServer(spawn);
    const pid = transport.pid as number;
    const controller = new AbortController();
    const connecting = CodexClient.connect(transport, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(); // initialize is on its way; its reply has not come
    const error = await connecting;
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ code: "REQUEST_ABORTED", method: "initialize" });
    expect(await transport.closed).toMatchObject({ reason: "closed" });
    expect(isRunning(pid)).toBe(false);
  });

  it("a signal aborting connectCodex() mid-handshake rejects typed and leaves no process", async () => {
    const { spawn } = await offlineCodex();
    const controller = new AbortController();
    let error: unknown;
    const { after } = await startedBy(async () => {
      const connecting = connectCodex({ ...spawn, signal: controller.signal }).catch((e: unknown) => e);
      setTimeout(() => controller.abort(), 5);
      error = await connecting;
    });
    // Aborted in the handshake (the server had started), not before the start.
    expect(error).toMatchObject({ code: "REQUEST_ABORTED", method: "initialize" });
    expect(after).toEqual([]);
  });

  it("an already aborted signal starts nothing: spawnCodexAppServer and connectCodex reject at once", async () => {
    const { spawn } = await offlineCodex();
    const signal = AbortSignal.abort();
    let errors: unknown[] = [];
    const { during, after } = await startedBy(async () => {
      errors = await Promise.all([
        spawnCodexAppServer({ ...spawn, signal }).catch((e: unknown) => e),
        connectCodex({ ...spawn, signal }).catch((e: unknown) => e),
      ]);
    });
    for (const error of errors) expect(error).toMatchObject({ code: "REQUEST_ABORTED", method: "spawnCodexAppServer" });
    expect(during).toEqual([]);
    expect(after).toEqual([]);
  });

  it("`await using` a client closes it and ends its codex process; `await using` a transport too", async () => {
    const { spawn } = await offlineCodex();
    let clientPid: number;
    {
      const transport = await spawnCodexAppServer(spawn);
      clientPid = transport.pid as number;
      await using client = await CodexClient.connect(transport);
      expect(client.state).toBe("open");
      expect(isRunning(clientPid)).toBe(true);
    }
    expect(isRunning(clientPid)).toBe(false);

    let transportPid: number;
    {
      await using transport = await spawnCodexAppServer(spawn);
      transportPid = transport.pid as number;
      expect(isRunning(transportPid)).toBe(true);
    }
    expect(isRunning(transportPid)).toBe(false);
  });

  it("`await using client = await connectCodex(…)` runs a turn and leaves no process when the block ends", async () => {
    const { spawn, workspace } = await offlineCodex([reply.text("Five lines.", { chunks: 3 })]);
    let finalText: string | undefined;
    const { during, after } = await startedBy(async () => {
      await using client = await connectCodex({ ...spawn, clientInfo: { name: "codex-rpc-tests", version: "0.0.0" } });
      finalText = (await (await client.startThread({ cwd: workspace, approvalPolicy: "never" })).run("Count.").completed).finalText;
    });
    expect(finalText).toBe("Five lines.");
    expect(during.length).toBeGreaterThan(0); // the server ran …
    expect(after).toEqual([]); // … and is gone
  });
});
