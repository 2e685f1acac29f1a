import { ConnectionClosedError, RequestAbortedError } from "@codex-rpc/core";
import { codexChildEnvironment, isNodeScript } from "@codex-rpc/core/process";
import { spawn } from "node:child_process";
import { findCodexBinary } from "./find-codex-binary.js";
import { StdioTransport, type StdioTransportOptions } from "./stdio-transport.js";

export interface SpawnCodexAppServerOptions extends Omit<StdioTransportOptions, "cwd"> {
  /** The codex binary to run. Default: `findCodexBinary()` (CODEX_BIN, the @openai/codex package, PATH). */
  readonly codexPath?: string;
  /** Extra arguments after `app-server`, e.g. `["-c", "model=\"o4-mini\""]`. */
  readonly args?: readonly string[];
  /**
   * Variables for the server, on top of what codex needs from this process's environment (PATH,
   * HOME, CODEX_HOME, locale, proxies …: `CODEX_ENVIRONMENT_NEEDS` in @codex-rpc/core). Nothing else
   * of this process's environment is passed — no API keys or tokens — since codex runs commands a
   * model chose and they see it. A name set here wins; `NAME: undefined` withholds one of the needed ones.
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
 * Starts `codex app-server` and resolves with its transport once the process is running.
 *
 * @throws RequestAbortedError when `signal` is already aborted (nothing is started).
 * @throws CodexRpcError `BINARY_NOT_FOUND` when no codex binary can be found (listing where it looked).
 * @throws ConnectionClosedError (reason "error") when the process cannot be started, e.g. its
 *   working directory does not exist.
 */
export async function spawnCodexAppServer(options: SpawnCodexAppServerOptions = {}): Promise<StdioTransport> {
  if (options.signal?.aborted) throw new RequestAbortedError("spawnCodexAppServer", undefined, options.signal.reason);
  const binary = findCodexBinary({ explicitPath: options.codexPath });
  const serverArgs = ["app-server", ...(options.args ?? [])];
  // The npm launcher script is JavaScript: run it with this Node rather than rely on its shebang.
  const [command, args] = isNodeScript(binary) ? [process.execPath, [binary, ...serverArgs]] : [binary, serverArgs];

  const child = spawn(command, args, {
    env: codexChildEnvironment((name) => process.env[name], options.env),
    cwd: options.cwd,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  let transport: StdioTransport;
  try {
    transport = new StdioTransport(child, options);
  } catch (error) {
    child.kill("SIGKILL"); // never leave a process nobody can reach
    throw error;
  }

  // Node sets the pid synchronously when the process started; without one, 'error' follows and
  // the transport closes with a message that says what was missing.
  if (child.pid === undefined) throw new ConnectionClosedError(await transport.closed);
  return transport;
}

