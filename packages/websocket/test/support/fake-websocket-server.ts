// Fault-injection servers for the WebSocket tests (loopback only): a `ws` server whose connections
// can go deaf, and a way to run a client script under Node 20 (ws) or the real Node 22, Deno or Bun
// (their global WebSocket) against it.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type WebSocket from "ws";
import { WebSocketServer } from "ws";
import { runtimeBinary } from "@codex-rpc/test-support/runtimes.js";

export interface FakeServer {
  readonly url: string;
  /** Connections currently open, server side. */
  readonly clients: Set<WebSocket>;
  close(): Promise<void>;
}

/** A `ws` server on a free 127.0.0.1 port; `maxPayload: 0` so it can send and take frames of any size. */
export async function startFakeServer(onConnection: (socket: WebSocket) => void): Promise<FakeServer> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: 0 });
  await once(server, "listening");
  server.on("connection", onConnection);
  return {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}`,
    clients: server.clients,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/**
 * Makes a connection deaf and mute, as a frozen peer is: the server stops reading it (so it never
 * answers a probe or the close frame) and sends nothing more; TCP stays up.
 */
export function goDeaf(socket: WebSocket): void {
  (socket as unknown as { _socket: { pause(): void } })._socket.pause();
}

/** Answers `initialize` like codex and every other request with `{}`, unless `reply` says otherwise (undefined: no answer). */
export function answerRequests(socket: WebSocket, reply: (message: { id: unknown; method: string }) => unknown = () => ({})): void {
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: unknown; method: string };
    if (message.id === undefined) return;
    const result =
      message.method === "initialize"
        ? { userAgent: "fake/0", codexHome: "/tmp", platformFamily: "unix", platformOs: "linux" }
        : reply(message as { id: unknown; method: string });
    if (result !== undefined) socket.send(JSON.stringify({ id: message.id, result }));
  });
}

/** A JSON notification `{"method":"big","params":{"s":"…"}}` of exactly `bytes` UTF-8 bytes, padded with `fill` (1, 2 or 3 bytes each). */
export function frameOfBytes(bytes: number, fill = "x"): string {
  const shell = JSON.stringify({ method: "big", params: { s: "" } });
  const fillBytes = new TextEncoder().encode(fill).length;
  const room = bytes - shell.length;
  const text = fill.repeat(Math.floor(room / fillBytes)) + "x".repeat(room % fillBytes);
  return shell.replace('"s":""', `"s":"${text}"`);
}

export type ScriptRuntime = "node20" | "node22" | "deno" | "bun";

export interface ScriptRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The stdout lines that were JSON objects. */
  readonly results: Record<string, unknown>[];
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly elapsedMs: number;
}

const packageDir = join(import.meta.dirname, "..", "..");

/**
 * Runs an ES module that imports `@codex-rpc/websocket` (the built package) under Node 20 (this
 * process's node, so the package uses ws), or the pinned Node 22, Deno or Bun (their global
 * WebSocket, through the entry their export condition picks). Asynchronous, so a server in this
 * process keeps answering. The script reads its arguments from `process.argv` (Deno has it too).
 */
export function runScript(runtime: ScriptRuntime, script: string, options: { timeoutMs: number; args?: readonly string[] }): Promise<ScriptRun> {
  const { NODE_OPTIONS: _nodeOptions, ...env } = process.env;
  let argv: string[];
  let cleanup = () => {};
  if (runtime === "node20" || runtime === "node22") {
    argv = ["--input-type=module", "-e", script];
  } else {
    // Deno and Bun run a file; from outside the package, so it names the entry they would get.
    const dir = mkdtempSync(join(tmpdir(), "codex-rpc-ws-script-"));
    cleanup = () => rmSync(dir, { recursive: true, force: true });
    const file = join(dir, "script.mjs");
    writeFileSync(file, script.replaceAll('"@codex-rpc/websocket"', JSON.stringify(pathToFileURL(join(packageDir, "dist", "index.js")).href)));
    argv = runtime === "deno" ? ["run", "--allow-all", "--node-modules-dir=manual", "--no-lock", file] : [file];
  }
  const binary = runtime === "node20" ? process.execPath : runtimeBinary(runtime);
  const startedAt = performance.now();
  const child = spawn(binary, [...argv, ...(options.args ?? [])], { cwd: packageDir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr = (stderr + text).slice(-20_000)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, options.timeoutMs);
  return new Promise((resolve) => {
    child.once("close", (exitCode, signal) => {
      clearTimeout(timer);
      cleanup();
      const results: Record<string, unknown>[] = [];
      for (const line of stdout.split("\n")) {
        try {
          const value: unknown = JSON.parse(line);
          if (typeof value === "object" && value !== null) results.push(value as Record<string, unknown>);
        } catch {
          // Not a result line.
        }
      }
      resolve({ exitCode, signal, results, stderr, timedOut, elapsedMs: performance.now() - startedAt });
    });
  });
}
