import { ConnectionClosedError, RequestAbortedError } from "@codex-rpc/core";
import { codexChildEnvironment } from "@codex-rpc/core/process";
import { existsSync } from "node:fs";
import { BunStdioTransport, type BunStdioTransportOptions } from "./bun-stdio-transport.js";
import { findCodexBinary } from "./find-codex-binary.js";

export interface SpawnCodexAppServerOptions extends BunStdioTransportOptions {
  /** The codex binary to run. Default: `findCodexBinary()` (CODEX_BIN, the @openai/codex package, PATH). */
  readonly codexPath?: string;
  /** Extra arguments after `app-server`, e.g. `["-c", "model=\"o4-mini\""]`. */
  readonly args?: readonly string[];
  /**
   * Variables for the server, on top of what codex needs from this process's environment (PATH,
   * HOME, CODEX_HOME, locale, proxies …: `CODEX_ENVIRONMENT_NEEDS` in @codex-rpc/core). Nothing else
   * of this process's environment is passed — no API keys or tokens. A name set here wins;
   * `NAME: undefined` withholds one of the needed ones.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * An already aborted signal starts nothing: the call rejects with RequestAbortedError. Starting
   * does not wait on the server (it resolves once the process runs), so aborting later does
   * nothing here: pass the same signal to `CodexClient.connect()` (as `connectCodex` does) to
   * abort the handshake and end the process, or close the transport (`await using` it).
   */
  readonly signal?: AbortSignal;
  /** The server's working directory. Default: this process's. */
  readonly cwd?: string;
}

/**
 * Starts `codex app-server` with `Bun.spawn` and resolves with its transport once the process is
 * running.
 *
 * @throws RequestAbortedError when `signal` is already aborted (nothing is started).
 * @throws CodexRpcError `BINARY_NOT_FOUND` when no codex binary can be found (listing where it looked).
 * @throws ConnectionClosedError (reason "error") when the process cannot be started, e.g. its
 *   working directory does not exist.
 */
export async function spawnCodexAppServer(options: SpawnCodexAppServerOptions = {}): Promise<BunStdioTransport> {
  if (options.signal?.aborted) throw new RequestAbortedError("spawnCodexAppServer", undefined, options.signal.reason);
  const binary = findCodexBinary({ explicitPath: options.codexPath });
  let child: Bun.Subprocess;
  try {
    child = Bun.spawn({
      cmd: [binary, "app-server", ...(options.args ?? [])],
      // Bun passes `env` as the whole environment.
      env: codexChildEnvironment((name) => process.env[name], options.env),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      windowsHide: true,
    });
  } catch (error) {
    throw new ConnectionClosedError({ reason: "error", error: describeSpawnError(binary, options.cwd, error) });
  }
  return new BunStdioTransport(child, options);
}

/** Bun, like Node, reports a missing working directory as ENOENT of the command: say which one it was. */
function describeSpawnError(command: string, cwd: string | undefined, error: unknown): Error {
  const code = (error as { code?: unknown } | undefined)?.code;
  let reason: string;
  if (code === "ENOENT") {
    reason = cwd !== undefined && !existsSync(cwd) ? `its working directory ${cwd} does not exist` : `${command} does not exist`;
  } else if (code === "EACCES" || code === "ENOEXEC") {
    reason = `${command} is not an executable`;
  } else {
    reason = error instanceof Error ? error.message : String(error);
  }
  return new Error(`could not start ${command}: ${reason} (${typeof code === "string" ? code : "spawn error"})`, { cause: error });
}
