// The relay in front of the real codex 0.169.0 (mock model, offline): a CodexClient over the
// WebSocket transport runs a streamed turn through it; the relay's own spawned app-server exits
// when the relay closes; and the measurements the multiplexer relies on are logged.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "@codex-rpc/core";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { descendants } from "@codex-rpc/test-support/process-tree.js";
import { createCodexHome, MockResponsesProvider, reply, type CodexHome, type ScriptedReply } from "@codex-rpc/testing";
import { type RelayHandle, startRelay } from "../src/index.js";
import { recordingTransport } from "./support/recording-transport.js";
import { connectThroughRelay } from "./support/relay-clients.js";

const ORIGIN = "http://localhost:5173";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function offlineHome(script: readonly ScriptedReply[]): Promise<{ home: CodexHome; workspace: string; env: Record<string, string> }> {
  const provider = await MockResponsesProvider.start({ script });
  const home = await createCodexHome({ provider });
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const workspace = join(home.dir, "workspace");
  await mkdir(workspace);
  return { home, workspace, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env } };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the relay in front of the real codex app-server", () => {
  it("a CodexClient over the WebSocket transport runs a streamed turn through it; codex's order of thread/started and the answer is logged", async () => {
    const { workspace, env } = await offlineHome([reply.text("Hello through the relay", { chunks: 4 })]);
    const up: JsonRpcMessage[] = [];
    const down: JsonRpcMessage[] = [];
    const spawned = await spawnCodexAppServer({ codexPath: pinnedCodexBinary(), cwd: workspace, env });
    const relay = await startRelay({ upstream: { transport: recordingTransport(spawned, up, down) }, allowedOrigins: [ORIGIN] });
    cleanups.push(() => relay.close());
    const client = await connectThroughRelay(relay.url, { token: relay.token, origin: ORIGIN });
    cleanups.push(async () => void (await client.close()));

    expect(client.initializeResponse?.userAgent ?? "").toMatch(/^codex_rpc_relay\/0\.169\.0/);
    expect(client.serverVersion).toBe("0.169.0");
    const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
    const turn = thread.run("Say hello");
    const deltas: string[] = [];
    turn.text$.subscribe((text) => deltas.push(text));
    const completed = await turn.completed;
    expect(completed.turn.status).toBe("completed");
    expect(completed.finalText).toBe("Hello through the relay");
    expect(deltas.length).toBeGreaterThan(1);

    // Measured: where codex puts thread/started relative to the thread/start answer, and which ids it sends.
    const startId = up.find((m) => "method" in m && m.method === "thread/start" && "id" in m) as { id: number };
    const order = down
      .map((m) => ("method" in m ? m.method : "id" in m && m.id === startId.id ? "(thread/start answer)" : undefined))
      .filter((entry): entry is string => entry !== undefined);
    const answerAt = order.indexOf("(thread/start answer)");
    console.log(`codex 0.169.0 through the relay: first messages after thread/start: ${order.slice(0, answerAt + 3).join(", ")}`);
    console.log(`upstream ids the relay used: ${up.map((m) => ("id" in m ? m.id : "-")).join(" ")}`);
    const withoutThread = [
      ...new Set(
        down
          .filter((m) => "method" in m && !JSON.stringify(m.params ?? {}).includes('"threadId"') && !JSON.stringify(m.params ?? {}).includes(thread.id))
          .map((m) => (m as { method: string }).method),
      ),
    ];
    console.log(`notifications naming no thread (broadcast to every connection): ${withoutThread.join(", ") || "(none)"}`);
  });

  it("spawns codex app-server itself by default and ends it when the relay closes (checked by PID)", async () => {
    const { workspace, env } = await offlineHome([]);
    const relay: RelayHandle = await startRelay({ upstream: { spawn: { codexPath: pinnedCodexBinary(), cwd: workspace, env } } });
    const pid = relay.upstreamPid!;
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(true);
    const client = await connectThroughRelay(relay.url, { token: relay.token });
    expect((await client.request("thread/loaded/list", {})).data).toEqual([]);
    await relay.close();
    expect(isAlive(pid)).toBe(false);
    await expect(client.closed).resolves.toBeDefined();
  });

  it('isolation "process": each connection gets an app-server of its own, ended when it leaves', async () => {
    const { workspace, env } = await offlineHome([reply.text("A's answer"), reply.text("B's answer")]);
    const before = new Set(descendants());
    const relay = await startRelay({ isolation: "process", upstream: { spawn: { codexPath: pinnedCodexBinary(), cwd: workspace, env } } });
    cleanups.push(() => relay.close());
    expect(relay.upstreamPid).toBeUndefined();
    const spawnedNow = () => descendants().filter((pid) => !before.has(pid));
    expect(spawnedNow()).toEqual([]); // nothing until a page connects

    const pageA = await connectThroughRelay(relay.url, { token: relay.token });
    const afterA = spawnedNow();
    const pageB = await connectThroughRelay(relay.url, { token: relay.token });
    cleanups.push(async () => void (await pageB.close()));
    const processB = spawnedNow().filter((pid) => !afterA.includes(pid));
    expect(afterA.length).toBeGreaterThan(0);
    expect(processB.length).toBeGreaterThan(0);

    const threadA = await pageA.startThread({ cwd: workspace, approvalPolicy: "never" });
    expect((await threadA.run("A").completed).finalText).toBe("A's answer");
    expect((await pageB.request("thread/loaded/list", {})).data).toEqual([]); // B's app-server never saw A's thread
    await pageA.close();
    await until(() => afterA.every((pid) => !isAlive(pid)), "page A's app-server to exit");
    expect(processB.every(isAlive)).toBe(true);
    const threadB = await pageB.startThread({ cwd: workspace, approvalPolicy: "never" });
    expect((await threadB.run("B").completed).finalText).toBe("B's answer");
    await relay.close();
    expect(processB.every((pid) => !isAlive(pid))).toBe(true);
  });

  it("refuses to listen on a non-loopback host unless told to", async () => {
    await expect(startRelay({ host: "0.0.0.0", upstream: { transport: undefined as never } })).rejects.toThrow(/not a loopback address/);
  });
});
