// The Node entry over a Unix socket, against the real codex app-server started with plain
// `--listen unix://`: the client finds the socket at codex's default control-socket path.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CodexClient } from "@codex-rpc/core";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { MockResponsesProvider, createCodexHome, reply, type CodexHome } from "@codex-rpc/testing";
import { defaultControlSocketPath, openWebSocketTransport } from "../src/node.js";

let provider: MockResponsesProvider;
let home: CodexHome;
let workspace: string;
let stopServer: () => void = () => {};

beforeAll(async () => {
  provider = await MockResponsesProvider.start({ script: [reply.text("over a unix socket")] });
  home = await createCodexHome({ provider });
  workspace = await mkdtemp(join(tmpdir(), "codex-rpc-unix-"));
  const server = spawn(pinnedCodexBinary(), ["app-server", "--listen", "unix://"], {
    env: { PATH: process.env.PATH ?? "", ...home.env },
    cwd: workspace,
    stdio: "ignore",
  });
  stopServer = () => server.kill("SIGKILL");
  const socketPath = defaultControlSocketPath(home.env.CODEX_HOME);
  for (let waited = 0; !existsSync(socketPath); waited += 50) {
    if (waited > 20_000 || server.exitCode !== null) throw new Error(`codex made no socket at ${socketPath}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(async () => {
  stopServer();
  await provider.close();
  await home.cleanup();
  await rm(workspace, { recursive: true, force: true });
});

it("finds codex's default control socket under CODEX_HOME and runs a turn over it", async () => {
  expect(defaultControlSocketPath("/some/home")).toBe("/some/home/app-server-control/app-server-control.sock");
  const transport = await openWebSocketTransport({ socketPath: defaultControlSocketPath(home.env.CODEX_HOME) });
  const client = await CodexClient.connect(transport);
  try {
    const thread = await client.startThread({ cwd: workspace });
    const { status, finalText } = await thread.run("hello").completed;
    expect(status).toBe("completed");
    expect(finalText).toBe("over a unix socket");
  } finally {
    await client.close();
  }
});

it("refuses an ambiguous or empty address", async () => {
  await expect(openWebSocketTransport({})).rejects.toMatchObject({
    code: "INVALID_OPTION",
    message: expect.stringMatching(/exactly one of `url` and `socketPath`/),
  });
  await expect(openWebSocketTransport({ url: "ws://127.0.0.1:1", socketPath: "/tmp/x.sock" })).rejects.toThrow(/exactly one/);
});
