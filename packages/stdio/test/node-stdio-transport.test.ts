// Fault injection with small Node programs standing in for the server: behaviour codex will not
// show on demand (ignoring SIGTERM, a grandchild holding the pipes, noisy stderr).
import type { JsonRpcMessage, TransportDiagnostic } from "@codex-rpc/core";
import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { performance } from "node:perf_hooks";
import { filter, firstValueFrom, toArray } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { NodeStdioTransport, type NodeStdioTransportOptions } from "../src/node-stdio-transport.js";
import { isProcessRunning } from "@codex-rpc/test-support/runtimes.js";

const transports: NodeStdioTransport[] = [];
const strayPids: number[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
  for (const pid of strayPids.splice(0)) killQuietly(pid);
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Runs `script` (CommonJS) in a Node child with piped stdio, wrapped in a NodeStdioTransport. */
function fakeServer(script: string, options: NodeStdioTransportOptions = {}): NodeStdioTransport {
  const child = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "pipe"] });
  const transport = new NodeStdioTransport(child, options);
  transports.push(transport);
  return transport;
}

function nextMessage(transport: NodeStdioTransport, method: string): Promise<JsonRpcMessage> {
  return firstValueFrom(transport.messages$.pipe(filter((m) => "method" in m && m.method === method)));
}

// A server that echoes requests back as results and exits when its stdin ends.
const ECHO_SERVER = `
  let buffered = "";
  process.stdin.on("data", (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf("\\n")) !== -1) {
      const message = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      process.stdout.write(JSON.stringify({ id: message.id, result: message.params }) + "\\n");
    }
  });
  process.stdin.on("end", () => process.exit(0));
  process.stdout.write(JSON.stringify({ method: "ready" }) + "\\n");
`;

describe("NodeStdioTransport", () => {
  it("round-trips messages in order and exits cleanly on close()", async () => {
    const transport = fakeServer(ECHO_SERVER);
    const replies = firstValueFrom(
      transport.messages$.pipe(
        filter((m) => "id" in m),
        toArray(),
      ),
    );
    await Promise.all(Array.from({ length: 200 }, (_, id) => transport.send({ id, method: "echo", params: { id, text: "héllo 😀" } })));
    await transport.close();
    const received = await replies;
    expect(received.map((m) => (m as { id: number }).id)).toEqual(Array.from({ length: 200 }, (_, id) => id));
    expect(received[7]).toEqual({ id: 7, result: { id: 7, text: "héllo 😀" } });
    await expect(transport.closed).resolves.toMatchObject({ reason: "closed", exitCode: 0, signal: null });
  });

  it("keeps the last stderr lines, ANSI stripped and secrets redacted, and reports each as a diagnostic", async () => {
    const transport = fakeServer(`
      for (let i = 0; i < 60; i++) process.stderr.write("\\u001b[2m2026-11-22T16:00:00Z\\u001b[0m \\u001b[32m INFO\\u001b[0m line " + i + "\\n");
      process.stderr.write("\\u001b[31mERROR\\u001b[0m refresh failed: refresh_token=rt_abcdef0123 Authorization: Bearer sk-proj-0123456789abcdefghijkl\\n");
      process.stderr.write("a last line without a newline");
      process.exitCode = 3;
    `);
    const diagnostics: TransportDiagnostic[] = [];
    transport.diagnostics$.subscribe((d) => diagnostics.push(d));
    const info = await transport.closed;

    expect(info).toMatchObject({ reason: "exit", exitCode: 3, signal: null });
    const tail = info.stderrTail!;
    expect(tail).toHaveLength(50);
    expect(tail[0]).toBe("2026-11-22T16:00:00Z  INFO line 12");
    expect(tail[48]).toBe("ERROR refresh failed: refresh_token=[REDACTED] Authorization: [REDACTED]");
    expect(tail[49]).toBe("a last line without a newline");
    expect(tail.join("\n")).not.toMatch(/\u001b|rt_abcdef|sk-proj/);
    expect(transport.stderrTail()).toEqual(tail);
    // The replay keeps the last 100: all 62 stderr lines fit.
    expect(diagnostics.filter((d) => d.kind === "stderr")).toHaveLength(62);
  });

  it("close() escalates to SIGTERM when the server ignores its stdin closing", async () => {
    const transport = fakeServer(`process.stdin.resume(); setInterval(() => {}, 1000); process.stdout.write('{"method":"ready"}\\n');`, {
      stdinEndTimeoutMs: 100,
      sigtermTimeoutMs: 5000,
    });
    await nextMessage(transport, "ready");
    const pid = transport.pid!;
    await transport.close();
    await expect(transport.closed).resolves.toMatchObject({ reason: "closed", exitCode: null, signal: "SIGTERM" });
    expect(isProcessRunning(pid)).toBe(false);
  });

  it("close() escalates to SIGKILL when the server also ignores SIGTERM, and resolves only when it is gone", async () => {
    const transport = fakeServer(
      `process.on("SIGTERM", () => {}); process.stdin.resume(); setInterval(() => {}, 1000); process.stdout.write('{"method":"ready"}\\n');`,
      { stdinEndTimeoutMs: 100, sigtermTimeoutMs: 100 },
    );
    await nextMessage(transport, "ready");
    const pid = transport.pid!;
    await transport.close();
    expect(isProcessRunning(pid)).toBe(false);
    await expect(transport.closed).resolves.toMatchObject({ reason: "closed", exitCode: null, signal: "SIGKILL" });
  });

  it("closes on exit even when a grandchild keeps the pipes open", async () => {
    const transport = fakeServer(`
      const grandchild = require("node:child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "inherit" });
      process.stdout.write(JSON.stringify({ method: "grandchild", params: { pid: grandchild.pid } }) + "\\n");
      process.exit(4);
    `);
    const announced = nextMessage(transport, "grandchild");
    const startedAt = performance.now();
    const info = await transport.closed;
    const grandchildPid = ((await announced) as { params: { pid: number } }).params.pid;
    strayPids.push(grandchildPid);
    expect(info).toMatchObject({ reason: "exit", exitCode: 4 });
    expect(performance.now() - startedAt).toBeLessThan(5000); // not held hostage by the grandchild's pipes
    expect(isProcessRunning(grandchildPid)).toBe(true); // it really did keep the pipes
  });

  it("a process that cannot be spawned closes the transport with reason error", async () => {
    const child = spawn("/nonexistent/codex-rpc-test-binary", [], { stdio: ["pipe", "pipe", "pipe"] });
    const transport = new NodeStdioTransport(child);
    const info = await transport.closed;
    expect(info.reason).toBe("error");
    expect((info.error as Error).message).toBe(
      "could not start /nonexistent/codex-rpc-test-binary: /nonexistent/codex-rpc-test-binary does not exist (ENOENT)",
    );
    expect(transport.pid).toBeUndefined();
    await transport.close(); // nothing to end; resolves
  });

  it("refuses a child process without piped stdio", () => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    expect(() => new NodeStdioTransport(child)).toThrow("stdio: 'pipe'");
  });

  it("copies what it keeps of a stdout that is not a pipe, whose producer may reuse its buffer", async () => {
    // A stand-in child whose stdout is a PassThrough fed from one reused 16-byte buffer (Node's
    // write contract allows reuse once the write's callback ran): a line split across writes must
    // survive it. A real pipe hands out a new Buffer per read, and only then are views kept.
    const stdout = new PassThrough();
    const child = Object.assign(new EventEmitter(), {
      stdin: new PassThrough(),
      stdout,
      stderr: new PassThrough(),
      pid: 1,
      exitCode: null,
      signalCode: null,
      kill: () => true,
    }) as unknown as ChildProcess;
    const transport = new NodeStdioTransport(child);
    const messages: JsonRpcMessage[] = [];
    transport.messages$.subscribe((message) => messages.push(message));
    const lines = Buffer.from('{"id":1,"result":"AAAAAAAAAAAAAAAA"}\n{"id":2,"result":"BB"}\n');
    const reused = Buffer.alloc(16);
    for (let offset = 0; offset < lines.length; ) {
      const n = lines.copy(reused, 0, offset, offset + reused.length);
      offset += n;
      await new Promise<void>((resolve) => stdout.write(reused.subarray(0, n), () => resolve()));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toEqual([
      { id: 1, result: "AAAAAAAAAAAAAAAA" },
      { id: 2, result: "BB" },
    ]);
    stdout.end();
  });
});
