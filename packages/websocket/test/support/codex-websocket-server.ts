// A real `codex app-server --listen ws://…` for tests: started on a port (0 = any), its address
// read from what it prints, killed (or frozen) on demand, never left behind.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripAnsi } from "@codex-rpc/core/process";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";

export interface CodexWebSocketServer {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Sends a signal and waits for the exit (SIGSTOP only sends: see test/support/stop-process.ts). */
  signal(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

export interface CodexWebSocketServerOptions {
  readonly env: Record<string, string>;
  readonly cwd?: string;
  readonly port?: number;
  readonly args?: readonly string[];
}

const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export async function startCodexWebSocketServer(options: CodexWebSocketServerOptions): Promise<CodexWebSocketServer> {
  const child = spawn(pinnedCodexBinary(), ["app-server", "--listen", `ws://127.0.0.1:${options.port ?? 0}`, ...(options.args ?? [])], {
    env: options.env,
    cwd: options.cwd,
    stdio: ["ignore", "ignore", "pipe"],
  });
  running.add(child);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once("exit", () => (running.delete(child), resolve())));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`codex did not say where it listens within 20 s; stderr:\n${stderr}`)), 20_000);
    const look = (): void => {
      const match = /listening on: (ws:\/\/[\d.]+:\d+)/.exec(stripAnsi(stderr));
      if (match) {
        clearTimeout(timer);
        child.stderr!.off("data", look);
        resolve(match[1]!);
      }
    };
    child.stderr!.on("data", look);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`codex exited before listening; stderr:\n${stderr}`));
    });
  });
  const signal = async (name: NodeJS.Signals): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(name);
    if (name !== "SIGSTOP") await exited;
  };
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid!,
    stderr: () => stderr,
    signal,
    stop: () => signal("SIGKILL"),
  };
}

/**
 * A codex app-server that wants `token` (`--ws-auth capability-token`), started in a fresh
 * directory (its cwd, where the token file is) with `env` (a CODEX_HOME's) and PATH. `stop()` also
 * removes the directory.
 */
export async function startCodexWithToken(token: string, env: Record<string, string>): Promise<CodexWebSocketServer & { readonly dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), "codex-rpc-ws-token-"));
  const tokenFile = join(dir, "token");
  await writeFile(tokenFile, token);
  const server = await startCodexWebSocketServer({
    env: { PATH: process.env.PATH ?? "", ...env },
    cwd: dir,
    args: ["--ws-auth", "capability-token", "--ws-token-file", tokenFile],
  }).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    ...server,
    dir,
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
