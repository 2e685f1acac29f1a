import { ConnectionClosedError, RequestAbortedError } from "@codex-rpc/core";
import { codexChildEnvironment, type SpawnCodexAppServerOptions } from "@codex-rpc/core/process";
import { DenoStdioTransport } from "./deno-stdio-transport.js";
import { findCodexBinary } from "./find-codex-binary.js";

export type { SpawnCodexAppServerOptions };

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
