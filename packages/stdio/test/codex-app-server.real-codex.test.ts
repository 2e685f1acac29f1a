// Against the real server: the codex binary from the @openai/codex devDependency (0.169.0).
import { CodexRpcError, ConnectionClosedError, type JsonRpcMessage } from "@codex-rpc/core";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { filter, firstValueFrom } from "rxjs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnCodexAppServer, type NodeStdioTransport } from "../src/index.js";
import { isProcessRunning } from "@codex-rpc/test-support/runtimes.js";

let codexHome: string;
const started: NodeStdioTransport[] = [];

beforeEach(() => {
  codexHome = mkdtempSync(join(tmpdir(), "codex-rpc-stdio-home-"));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((transport) => transport.close()));
  rmSync(codexHome, { recursive: true, force: true });
});

async function startServer(env: Record<string, string | undefined> = { ...process.env, CODEX_HOME: codexHome }): Promise<NodeStdioTransport> {
  const transport = await spawnCodexAppServer({ env });
  started.push(transport);
  return transport;
}

const initialize = {
  id: 1,
  method: "initialize",
  params: { clientInfo: { name: "codex_rpc_test", title: "codex-rpc tests", version: "0.1.0" }, capabilities: { experimentalApi: true } },
};

function replyTo(transport: NodeStdioTransport, id: number): Promise<JsonRpcMessage> {
  return firstValueFrom(transport.messages$.pipe(filter((message) => "id" in message && message.id === id && !("method" in message))));
}

describe("spawnCodexAppServer against codex 0.169.0", () => {
  it("answers initialize through messages; close() ends the server and leaves no process", async () => {
    const transport = await startServer();
    const pid = transport.pid!;
    expect(isProcessRunning(pid)).toBe(true);

    const reply = replyTo(transport, 1);
    await transport.send(initialize);
    expect(await reply).toMatchObject({ id: 1, result: { codexHome, platformFamily: expect.any(String) } });

    await transport.close();
    const info = await transport.closed;
    expect(info.reason).toBe("closed");
    expect(info.exitCode).toBe(0); // codex exits by itself when its stdin ends
    expect(info.stderrTail).toEqual(expect.any(Array));
    expect(isProcessRunning(pid)).toBe(false);
    await expect(transport.send({ method: "initialized" })).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it("a server killed with SIGKILL closes the transport at once with the signal and the stderr tail", async () => {
    const transport = await startServer();
    const pid = transport.pid!;
    const reply = replyTo(transport, 1);
    await transport.send(initialize);
    await reply;
    // codex logs its startup warnings (PATH aliases under /tmp, bubblewrap) before it answers.
    await firstValueFrom(transport.diagnostics$.pipe(filter((d) => d.kind === "stderr")));

    const killedAt = performance.now();
    process.kill(pid, "SIGKILL");
    const info = await transport.closed;
    const elapsedMs = performance.now() - killedAt;
    console.log(`closed ${elapsedMs.toFixed(1)} ms after SIGKILL`);

    expect(elapsedMs).toBeLessThan(1000); // typically a few ms; the bound only catches a hang
    expect(info).toMatchObject({ reason: "exit", exitCode: null, signal: "SIGKILL" });
    expect(info.stderrTail!.length).toBeGreaterThan(0);
    expect(info.stderrTail!.join("\n")).not.toMatch(/\u001b/); // ANSI stripped
    expect(transport.stderrTail()).toEqual(info.stderrTail);
    expect(isProcessRunning(pid)).toBe(false);
    const error = await transport.send(initialize).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as ConnectionClosedError).message).toContain("server killed by SIGKILL");
  });

  it("a server that exits at start (CODEX_HOME does not exist) closes with exit code 1 and says why in the stderr tail", async () => {
    const missingHome = join(codexHome, "does-not-exist");
    const transport = await startServer({ ...process.env, CODEX_HOME: missingHome });
    const info = await transport.closed;
    expect(info).toMatchObject({ reason: "exit", exitCode: 1, signal: null });
    expect(info.stderrTail!.join("\n")).toContain(`CODEX_HOME points to "${missingHome}", but that path does not exist`);
  });

  it("a codex path that does not exist fails with BINARY_NOT_FOUND naming it", async () => {
    const missing = join(codexHome, "no-such-codex");
    const error = await spawnCodexAppServer({ codexPath: missing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodexRpcError);
    expect(error).toMatchObject({ code: "BINARY_NOT_FOUND" });
    expect((error as Error).message).toContain(`the explicit path ${missing}: does not exist`);
  });

  it("a process that cannot start (missing working directory) rejects with reason error and a clear message", async () => {
    const missingCwd = join(codexHome, "no-such-dir");
    const error = await spawnCodexAppServer({ cwd: missingCwd, env: { ...process.env, CODEX_HOME: codexHome } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    const close = (error as ConnectionClosedError).close;
    expect(close.reason).toBe("error");
    expect((close.error as Error).message).toContain(`its working directory ${missingCwd} does not exist`);
    expect((error as Error).message).toContain("does not exist");
  });
});
