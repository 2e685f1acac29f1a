// `codex app-server --listen ws://127.0.0.1:0` or `--listen unix://PATH`, started by the
// orchestrator for the WebSocket and Unix-socket paths, resolved once it accepts connections.
import { spawn } from "node:child_process";
import { readlinkSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { dirname, resolve } from "node:path";

export interface ListeningAppServerOptions {
  readonly codexPath: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly listen: "ws" | "unix";
  /** For `unix`: where the socket goes. */
  readonly socketPath?: string;
  /** Default 15 000 ms. */
  readonly readyTimeoutMs?: number;
  /** More `app-server` arguments after `--listen` (e.g. `--ws-auth capability-token`). */
  readonly args?: readonly string[];
}

export interface ListeningAppServer {
  readonly pid: number;
  /** `ws://127.0.0.1:PORT`, for `ws`. */
  readonly url?: string;
  /** For `unix`. */
  readonly socketPath?: string;
  /** SIGTERM, then SIGKILL after 3 s; resolves once the process is gone. Safe to call twice. */
  stop(): Promise<void>;
}

const LISTENING_LINE = /listening on: (ws:\/\/\S+)/;

export async function startListeningAppServer(options: ListeningAppServerOptions): Promise<ListeningAppServer> {
  const listenArgument = options.listen === "ws" ? "ws://127.0.0.1:0" : `unix://${options.socketPath}`;
  // A listening server ignores stdin (it keeps running on EOF) and says where it listens on stderr.
  const child = spawn(options.codexPath, ["app-server", "--listen", listenArgument, ...(options.args ?? [])], {
    env: options.env,
    cwd: options.cwd,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-8_000);
  });
  const exited = new Promise<void>((resolveExit) => {
    if (child.exitCode !== null || child.signalCode !== null) resolveExit();
    else child.once("exit", () => resolveExit());
  });
  child.once("error", () => undefined); // reported through `exited` and the readiness error

  let stopping: Promise<void> | undefined;
  let socketTarget: string | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
        await exited;
        clearTimeout(timer);
      }
      // A SIGKILLed server leaves its socket behind (the path is a symlink to codex's own socket file).
      if (socketTarget) for (const leftover of [socketTarget, `${socketTarget}.lock`]) rmSync(leftover, { force: true });
    })());

  const readyTimeoutMs = options.readyTimeoutMs ?? 15_000;
  const polling = new AbortController(); // ends the readiness polls when the race is decided
  try {
    if (child.pid === undefined) throw new Error(`could not start ${options.codexPath}`);
    const ready = options.listen === "ws" ? waitForListeningUrl(() => stderr, polling.signal) : waitForSocket(options.socketPath!, polling.signal);
    const outcome = await Promise.race([
      ready,
      exited.then(() => Promise.reject(new Error(`exited before listening (code ${child.exitCode}, signal ${child.signalCode})`))),
      delay(readyTimeoutMs, polling.signal).then(() => Promise.reject(new Error(`not listening after ${readyTimeoutMs} ms`))),
    ]);
    if (options.listen === "unix") socketTarget = resolveSymlink(options.socketPath!);
    return options.listen === "ws" ? { pid: child.pid, url: outcome as string, stop } : { pid: child.pid, socketPath: options.socketPath!, stop };
  } catch (error) {
    await stop();
    const tail = stderr.trim().split("\n").slice(-3).join(" | ");
    throw new Error(`codex app-server --listen ${listenArgument}: ${(error as Error).message}; stderr: ${tail}`);
  } finally {
    polling.abort();
  }
}

async function waitForListeningUrl(stderr: () => string, signal: AbortSignal): Promise<string> {
  while (!signal.aborted) {
    const match = LISTENING_LINE.exec(stderr());
    if (match) return match[1]!;
    await delay(25);
  }
  return "";
}

/** Ready once a connection succeeds (the socket file appears before the server accepts). */
async function waitForSocket(socketPath: string, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const connected = await new Promise<boolean>((resolveAttempt) => {
      const socket = connect(socketPath);
      socket.once("connect", () => {
        socket.destroy();
        resolveAttempt(true);
      });
      socket.once("error", () => resolveAttempt(false));
    });
    if (connected) return;
    await delay(50);
  }
}

function resolveSymlink(path: string): string | undefined {
  try {
    return resolve(dirname(path), readlinkSync(path));
  } catch {
    return undefined; // a plain socket file, removed with its directory
  }
}

/** Resolves after `ms`, or at once (and without a timer left behind) when `signal` aborts. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolveDelay) => {
    const timer = setTimeout(resolveDelay, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolveDelay();
      },
      { once: true },
    );
  });
}
