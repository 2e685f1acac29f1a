// Test scaffolding: the real `codex app-server` over stdio with just enough JSON-RPC to drive a
// turn, including answers to server→client requests (approvals, item/tool/call, user input).
// Not the product client (@codex-rpc/core). packages/protocol/test/support/app-server-process.ts
// is not reused because it answers every server request itself with -32601 and offers no hook.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type {
  ClientRequestMap,
  ClientRequestMethod,
  ServerNotificationMap,
  ServerNotificationMethod,
  ServerRequestMap,
  ServerRequestMethod,
} from "@codex-rpc/protocol/experimental";

/** The bin script of the `@openai/codex` this package pins (a Node launcher for the native binary). */
export function codexBinScript(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve("@openai/codex/package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: string | Record<string, string> };
  const script = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.["codex"];
  if (script === undefined) throw new Error(`${manifestPath} has no bin.codex`);
  return join(dirname(manifestPath), script);
}

/** A discriminated union over methods, so `if (n.method === "item/completed")` narrows `params`. */
export type ReceivedNotification<M extends ServerNotificationMethod = ServerNotificationMethod> = {
  [K in M]: { readonly method: K; readonly params: ServerNotificationMap[K]["params"] };
}[M];

export interface ReceivedServerRequest {
  readonly id: number | string;
  readonly method: string;
  readonly params: unknown;
}

type ServerRequestHandler<M extends ServerRequestMethod> = (
  params: ServerRequestMap[M]["params"],
) => ServerRequestMap[M]["result"] | Promise<ServerRequestMap[M]["result"]>;

export class JsonRpcReplyError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method} failed: ${code} ${message}`);
  }
}

interface Pending {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

interface NotificationWaiter {
  readonly test: (notification: ReceivedNotification) => boolean;
  readonly resolve: (notification: ReceivedNotification) => void;
}

export interface AppServerClientOptions {
  readonly cwd: string;
  /** The child's whole environment; nothing is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly requestTimeoutMs?: number;
}

export class AppServerClient {
  readonly notifications: ReceivedNotification[] = [];
  readonly serverRequests: ReceivedServerRequest[] = [];
  readonly exited: Promise<number | null>;

  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, Pending>();
  readonly #handlers = new Map<string, (params: never) => unknown>();
  readonly #waiters = new Set<NotificationWaiter>();
  readonly #timeoutMs: number;
  readonly #stderr: string[] = [];
  #partial = "";
  #nextId = 1;

  constructor(options: AppServerClientOptions) {
    this.#timeoutMs = options.requestTimeoutMs ?? 20_000;
    this.#child = spawn(process.execPath, [codexBinScript(), "app-server"], {
      cwd: options.cwd,
      env: { ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      // Own process group, so the launcher and the native binary are signalled together.
      detached: true,
    });
    this.#child.stdout.setEncoding("utf8");
    this.#child.stderr.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk: string) => this.#onStdout(chunk));
    this.#child.stderr.on("data", (chunk: string) => {
      this.#stderr.push(...chunk.split("\n"));
      this.#stderr.splice(0, Math.max(0, this.#stderr.length - 30));
    });
    this.#child.stdin.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      this.#child.once("exit", (code) => {
        for (const pending of this.#pending.values()) {
          clearTimeout(pending.timer);
          pending.reject(new Error(`${pending.method}: codex app-server exited (${String(code)})${this.#stderrTail()}`));
        }
        this.#pending.clear();
        resolve(code);
      });
    });
  }

  /** `initialize` (experimental API on, for dynamicTools and collaborationMode) + `initialized`. */
  async initialize(): Promise<ClientRequestMap["initialize"]["result"]> {
    const result = await this.request("initialize", {
      clientInfo: { name: "codex_rpc_testing", title: "codex-rpc testing", version: "0.0.0" },
      capabilities: { experimentalApi: true },
    });
    this.notify("initialized");
    return result;
  }

  request<M extends ClientRequestMethod>(
    method: M,
    params: ClientRequestMap[M]["params"],
  ): Promise<ClientRequestMap[M]["result"]> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method}: no reply within ${this.#timeoutMs} ms${this.#stderrTail()}`));
      }, this.#timeoutMs);
      this.#pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject, timer });
      this.#write(params === undefined ? { id, method } : { id, method, params });
    });
  }

  notify(method: string, params?: unknown): void {
    this.#write(params === undefined ? { method } : { method, params });
  }

  /** Answers every server request of `method` with the handler's result. Unhandled ones get -32601. */
  onServerRequest<M extends ServerRequestMethod>(method: M, handler: ServerRequestHandler<M>): void {
    this.#handlers.set(method, handler as (params: never) => unknown);
  }

  /** The first notification (already received or still to come) that passes `test`. */
  waitForNotification<M extends ServerNotificationMethod>(
    method: M,
    test: (params: ServerNotificationMap[M]["params"]) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<ReceivedNotification<M>> {
    const matches = (notification: ReceivedNotification): boolean =>
      notification.method === method && test(notification.params as ServerNotificationMap[M]["params"]);
    const found = this.notifications.find(matches);
    if (found !== undefined) return Promise.resolve(found as unknown as ReceivedNotification<M>);
    return new Promise((resolve, reject) => {
      const waiter: NotificationWaiter = {
        test: matches,
        resolve: (notification) => {
          clearTimeout(timer);
          resolve(notification as unknown as ReceivedNotification<M>);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`no ${method} notification within ${timeoutMs} ms${this.#stderrTail()}`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  /** Notifications of one method, in arrival order. */
  notificationsOf<M extends ServerNotificationMethod>(method: M): ReceivedNotification<M>[] {
    return this.notifications.filter((n) => n.method === method) as unknown as ReceivedNotification<M>[];
  }

  /** stdin end → SIGTERM → SIGKILL. */
  async close(): Promise<void> {
    this.#child.stdin.end();
    this.#signal("SIGTERM");
    const timer = setTimeout(() => this.#signal("SIGKILL"), 3_000);
    await this.exited;
    clearTimeout(timer);
  }

  #signal(signal: NodeJS.Signals): void {
    try {
      if (this.#child.pid !== undefined) process.kill(-this.#child.pid, signal);
    } catch {
      // Already gone.
    }
  }

  #write(message: object): void {
    this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  #onStdout(chunk: string): void {
    const lines = (this.#partial + chunk).split("\n");
    this.#partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() !== "") this.#onMessage(JSON.parse(line) as Record<string, unknown>);
    }
  }

  #onMessage(message: Record<string, unknown>): void {
    const method = message["method"];
    const id = message["id"];
    if (typeof method === "string" && (typeof id === "number" || typeof id === "string")) {
      void this.#answerServerRequest({ id, method, params: message["params"] });
    } else if (typeof method === "string") {
      const notification = { method, params: message["params"] } as ReceivedNotification;
      this.notifications.push(notification);
      for (const waiter of this.#waiters) {
        if (!waiter.test(notification)) continue;
        this.#waiters.delete(waiter);
        waiter.resolve(notification);
      }
    } else if (typeof id === "number") {
      const pending = this.#pending.get(id);
      if (pending === undefined) return;
      this.#pending.delete(id);
      clearTimeout(pending.timer);
      const error = message["error"] as { code: number; message: string } | undefined;
      if (error !== undefined) pending.reject(new JsonRpcReplyError(pending.method, error.code, error.message));
      else pending.resolve(message["result"]);
    }
  }

  async #answerServerRequest(request: ReceivedServerRequest): Promise<void> {
    this.serverRequests.push(request);
    const handler = this.#handlers.get(request.method);
    if (handler === undefined) {
      this.#write({ id: request.id, error: { code: -32601, message: `test client does not handle ${request.method}` } });
      return;
    }
    try {
      this.#write({ id: request.id, result: await handler(request.params as never) });
    } catch (error) {
      this.#write({ id: request.id, error: { code: -32603, message: String(error) } });
    }
  }

  #stderrTail(): string {
    const tail = this.#stderr.filter((line) => line.trim() !== "").slice(-10);
    return tail.length === 0 ? "" : `\nlast stderr lines:\n${tail.join("\n")}`;
  }
}
