import { ConnectionClosedError, RequestAbortedError } from "@codex-rpc/core";
import { codexChildEnvironment } from "@codex-rpc/core/process";
import { DenoStdioTransport, type DenoStdioTransportOptions } from "./deno-stdio-transport.js";
import { findCodexBinary } from "./find-codex-binary.js";

export interface SpawnCodexAppServerOptions extends DenoStdioTransportOptions {
  /** The codex binary to run. Default: `findCodexBinary()` (CODEX_BIN, the @openai/codex package, PATH). */
  readonly codexPath?: string;
  /** Extra arguments after `app-server`, e.g. `["-c", "model=\"o4-mini\""]`. */
  readonly args?: readonly string[];
  /**
   * Variables for the server, on top of what codex needs from this program's environment (PATH,
   * HOME, CODEX_HOME, locale, proxies …: `CODEX_ENVIRONMENT_NEEDS` in @codex-rpc/core; reading them
   * needs `--allow-env` for those names, and unreadable ones are left out). Nothing else of this
   * program's environment is passed — no API keys or tokens. A name set here wins; `NAME: undefined`
   * withholds one of the needed ones.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * An already aborted signal starts nothing: the call rejects with RequestAbortedError. Starting
   * does not wait on the server (it resolves once the process runs), so aborting later does
   * nothing here: pass the same signal to `CodexClient.connect()` (as `connectCodex` does) to
   * abort the handshake and end the process, or close the transport (`await using` it).
   */
  readonly signal?: AbortSignal;
  /** The server's working directory. Default: this program's. */
  readonly cwd?: string;
}

/**
 * Starts `codex app-server` with `Deno.Command` and resolves with its transport once the process
 * is running. Needs `--allow-run` (for the codex binary), `--allow-read` and
 * `--allow-env=CODEX_BIN,PATH` for the binary search (see the README).
 *
 * @throws RequestAbortedError when `signal` is already aborted (nothing is started).
 * @throws CodexRpcError `BINARY_NOT_FOUND` when no codex binary can be found (listing where it looked).
 * @throws ConnectionClosedError (reason "error") when the process cannot be started, e.g. its
 *   working directory does not exist or `--allow-run` does not cover it.
 */
export async function spawnCodexAppServer(options: SpawnCodexAppServerOptions = {}): Promise<DenoStdioTransport> {
  if (options.signal?.aborted) throw new RequestAbortedError("spawnCodexAppServer", undefined, options.signal.reason);
  const binary = findCodexBinary({ explicitPath: options.codexPath });
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(binary, {
      args: ["app-server", ...(options.args ?? [])],
      // Deno adds `env` to the parent's environment unless told to clear it first.
      env: codexChildEnvironment(readParentVariable, options.env),
      clearEnv: true,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    // Deno's messages already say what was missing (the command, or "No such cwd").
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConnectionClosedError({ reason: "error", error: new Error(`could not start ${binary}: ${reason}`, { cause: error }) });
  }
  return new DenoStdioTransport(child, options);
}

/**
 * One variable of this program's environment; undefined when unset or not granted by
 * `--allow-env`. Asks first: on a terminal, reading an ungranted variable would prompt.
 */
function readParentVariable(name: string): string | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") return undefined;
  return Deno.env.get(name);
}
