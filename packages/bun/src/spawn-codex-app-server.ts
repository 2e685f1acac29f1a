import { ConnectionClosedError, RequestAbortedError } from "@codex-rpc/core";
import { codexChildEnvironment, describeSpawnError, type SpawnCodexAppServerOptions } from "@codex-rpc/core/process";
import { existsSync } from "node:fs";
import { BunStdioTransport } from "./bun-stdio-transport.js";
import { findCodexBinary } from "./find-codex-binary.js";

export type { SpawnCodexAppServerOptions };

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
    throw new ConnectionClosedError({ reason: "error", error: describeSpawnError(binary, options.cwd, error, existsSync) });
  }
  return new BunStdioTransport(child, options);
}
