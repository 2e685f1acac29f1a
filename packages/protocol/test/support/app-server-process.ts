// Test scaffolding: runs the real `codex app-server` over stdio and speaks just enough
// line-delimited JSON-RPC to send requests and collect replies. It is not the product client
// (that lives in @codex-rpc/core); it exists so the generated validators can be checked
// against what the pinned codex binary really sends.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createServer } from "node:net";
import type { ClientRequestMap, ClientRequestMethod } from "@codex-rpc/protocol";

/** A loopback TCP port that was free a moment ago and that nobody listens on now. */
export async function findUnusedLoopbackPort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") {
        server.close();
        reject(new Error("could not read the bound port"));
        return;
      }
      const { port } = address;
      server.close(() => resolve(port));
    });
  });
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A response as it arrived: exactly one of `result` or `error` is present. */
export type JsonRpcReply =
  | { readonly id: number; readonly result: unknown; readonly error?: undefined }
  | { readonly id: number; readonly error: JsonRpcErrorObject; readonly result?: undefined };

export interface ReceivedNotification {
  readonly method: string;
  readonly params: unknown;
}

export interface AppServerProcessOptions {
  /** The codex binary (the pinned one: pinnedCodexBinary() from @codex-rpc/test-support). */
  readonly codexBinary: string;
  readonly cwd: string;
  /** The whole environment of the child; nothing is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly requestTimeoutMs?: number;
  /** How many stderr lines to keep for error messages. */
  readonly stderrLines?: number;
}

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

interface PendingRequest {
  readonly method: string;
  readonly resolve: (reply: JsonRpcReply) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** `codex app-server` on stdio, with a minimal request/response matcher. */
export class AppServerProcess {
  readonly pid: number;
  /** Notifications in arrival order. */
  readonly notifications: ReceivedNotification[] = [];
  /** stdout lines that were not a JSON object (stdout must be pure protocol). */
  readonly badLines: string[] = [];
  readonly exited: Promise<ProcessExit>;

  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, PendingRequest>();
  readonly #timeoutMs: number;
  readonly #stderrLimit: number;
  readonly #stderr: string[] = [];
  #stderrPartial = "";
  #stdoutPartial = "";
  #nextId = 1;
  #exit: ProcessExit | undefined;

  constructor(options: AppServerProcessOptions) {
    this.#timeoutMs = options.requestTimeoutMs ?? 15_000;
    this.#stderrLimit = options.stderrLines ?? 20;
    this.#child = spawn(options.codexBinary, ["app-server"], {
      cwd: options.cwd,
      env: { ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      // Own process group, so the launcher and the native binary it starts can be
      // signalled and checked as one.
      detached: process.platform !== "win32",
    });
    if (this.#child.pid === undefined) {
      throw new Error(`could not spawn ${options.codexBinary} app-server`);
    }
    this.pid = this.#child.pid;
    this.#child.stdout.setEncoding("utf8");
    this.#child.stderr.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk: string) => this.#onStdout(chunk));
    this.#child.stderr.on("data", (chunk: string) => this.#onStderr(chunk));
    // Writes after the server went away must not crash the test run; pending requests
    // are rejected by the exit handler instead.
    this.#child.stdin.on("error", () => undefined);
    this.exited = new Promise<ProcessExit>((resolve) => {
      this.#child.once("exit", (code, signal) => {
        this.#exit = { code, signal };
        this.#rejectAll(new Error(`codex app-server exited (code ${String(code)}, signal ${String(signal)})${this.#stderrSuffix()}`));
        resolve(this.#exit);
      });
    });
    this.#child.once("error", (error) => {
      this.#rejectAll(new Error(`codex app-server failed: ${error.message}${this.#stderrSuffix()}`));
    });
  }

  /** The last stderr lines (tracing logs), oldest first. */
  stderrTail(): string[] {
    const partial = this.#stderrPartial === "" ? [] : [this.#stderrPartial];
    return [...this.#stderr, ...partial].slice(-this.#stderrLimit);
  }

  /**
   * Sends a request (no `params` member when `params` is undefined); resolves with the reply,
   * result or error, and rejects on timeout or when the process exits.
   */
  request<M extends ClientRequestMethod>(method: M, params: ClientRequestMap[M]["params"]): Promise<JsonRpcReply> {
    return this.#send(method, params);
  }

  /** Sends a notification (no reply). */
  notify(method: string, params?: unknown): void {
    this.#write(params === undefined ? { method } : { method, params });
  }

  /** stdin end → SIGTERM → SIGKILL after `graceMs`; resolves once the process has exited. */
  async close(graceMs = 3_000): Promise<ProcessExit> {
    if (this.#exit !== undefined) return this.#exit;
    this.#child.stdin.end();
    this.#signal("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), graceMs);
    });
    const first = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (first === "timeout") this.#signal("SIGKILL");
    return this.exited;
  }

  #send(method: string, params: unknown): Promise<JsonRpcReply> {
    if (this.#exit !== undefined) {
      return Promise.reject(new Error(`${method}: codex app-server has already exited${this.#stderrSuffix()}`));
    }
    const id = this.#nextId++;
    return new Promise<JsonRpcReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method} (id ${id}): no reply within ${this.#timeoutMs} ms${this.#stderrSuffix()}`));
      }, this.#timeoutMs);
      this.#pending.set(id, {
        method,
        resolve,
        reject: (error) => reject(new Error(`${method} (id ${id}): ${error.message}`)),
        timer,
      });
      this.#write(params === undefined ? { id, method } : { id, method, params });
    });
  }

  #write(message: object): void {
    this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  #signal(signal: NodeJS.Signals): void {
    try {
      // Negative pid: the whole process group (launcher + native binary).
      if (process.platform === "win32") this.#child.kill(signal);
      else process.kill(-this.pid, signal);
    } catch {
      // Already gone.
    }
  }

  #onStdout(chunk: string): void {
    const lines = (this.#stdoutPartial + chunk).split("\n");
    this.#stdoutPartial = lines.pop() ?? "";
    for (const raw of lines) {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (line.trim() === "") continue;
      this.#onLine(line);
    }
  }

  #onLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.badLines.push(line);
      return;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      this.badLines.push(line);
      return;
    }
    const record = message as Record<string, unknown>;
    const hasId = "id" in record;
    const method = record.method;
    if (typeof method === "string" && hasId) {
      // A server→client request. These tests never expect one; answer like the server does
      // for methods it does not know, so nothing waits on us.
      this.#write({ id: record.id, error: { code: -32601, message: `test client does not handle ${method}` } });
      this.notifications.push({ method, params: record.params });
      return;
    }
    if (typeof method === "string") {
      this.notifications.push({ method, params: record.params });
      return;
    }
    const id = record.id;
    const pending = typeof id === "number" ? this.#pending.get(id) : undefined;
    if (pending === undefined || typeof id !== "number") {
      this.badLines.push(line);
      return;
    }
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if ("error" in record) {
      pending.resolve({ id, error: record.error as JsonRpcErrorObject });
    } else if ("result" in record) {
      pending.resolve({ id, result: record.result });
    } else {
      pending.reject(new Error(`reply has neither result nor error: ${line}`));
    }
  }

  #onStderr(chunk: string): void {
    const lines = (this.#stderrPartial + chunk).split("\n");
    this.#stderrPartial = lines.pop() ?? "";
    this.#stderr.push(...lines);
    if (this.#stderr.length > this.#stderrLimit) {
      this.#stderr.splice(0, this.#stderr.length - this.#stderrLimit);
    }
  }

  #stderrSuffix(): string {
    const tail = this.stderrTail();
    return tail.length === 0 ? "" : `\nlast stderr lines:\n${tail.join("\n")}`;
  }

  #rejectAll(error: Error): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.#pending.delete(id);
    }
  }
}
