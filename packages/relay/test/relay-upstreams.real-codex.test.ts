// The relay in front of an app-server that is already running: `codex app-server --listen
// ws://127.0.0.1:0` and `--listen unix://` (codex 0.169.0, mock model). A page's CodexClient runs a
// turn through the relay either way.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { createCodexHome, MockResponsesProvider, reply } from "@codex-rpc/testing";
import { defaultControlSocketPath } from "@codex-rpc/websocket";
import { startCodexWebSocketServer } from "../../websocket/test/support/codex-websocket-server.js";
import { type RelayUpstream, startRelay } from "../src/index.js";
import { connectThroughRelay } from "./support/relay-clients.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function offline(text: string) {
  const provider = await MockResponsesProvider.start({ script: [reply.text(text)] });
  const home = await createCodexHome({ provider });
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  const workspace = join(home.dir, "workspace");
  await mkdir(workspace);
  return { home, workspace, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env } };
}

async function turnThroughRelay(upstream: RelayUpstream, workspace: string): Promise<string> {
  const relay = await startRelay({ upstream });
  cleanups.push(() => relay.close());
  const client = await connectThroughRelay(relay.url, { token: relay.token, origin: `http://localhost:${relay.port}` });
  cleanups.push(async () => void (await client.close()));
  const thread = await client.startThread({ cwd: workspace, approvalPolicy: "never" });
  const { status, finalText } = await thread.run("hello").completed;
  expect(status).toBe("completed");
  return finalText;
}

describe("the relay connected to a running app-server", () => {
  it("over WebSocket (codex --listen ws://127.0.0.1:0)", async () => {
    const { workspace, env } = await offline("relayed from a ws app-server");
    const server = await startCodexWebSocketServer({ env, cwd: workspace });
    cleanups.push(() => server.stop());
    expect(await turnThroughRelay({ url: server.url }, workspace)).toBe("relayed from a ws app-server");
  });

  it("over a Unix socket (codex --listen unix://)", async () => {
    const { home, workspace, env } = await offline("relayed from a unix socket");
    const child = spawn(pinnedCodexBinary(), ["app-server", "--listen", "unix://"], { env, cwd: workspace, stdio: "ignore" });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    cleanups.push(async () => {
      child.kill("SIGKILL");
      await exited;
    });
    const socketPath = defaultControlSocketPath(home.env.CODEX_HOME);
    for (let waited = 0; !existsSync(socketPath); waited += 50) {
      if (waited > 20_000 || child.exitCode !== null) throw new Error(`codex made no socket at ${socketPath}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await turnThroughRelay({ socketPath }, workspace)).toBe("relayed from a unix socket");
  });
});
