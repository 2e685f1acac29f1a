import { ConnectionClosedError, RequestAbortedError } from "@codex-rpc/core";
import { codexChildEnvironment, isNodeScript, type SpawnCodexAppServerOptions } from "@codex-rpc/core/process";
import { spawn } from "node:child_process";
import { findCodexBinary } from "./find-codex-binary.js";
import { NodeStdioTransport } from "./node-stdio-transport.js";

export type { SpawnCodexAppServerOptions };

/**
 * Starts `codex app-server` and resolves with its transport once the process is running.
 *
 * @throws RequestAbortedError when `signal` is already aborted (nothing is started).
 * @throws CodexRpcError `BINARY_NOT_FOUND` when no codex binary can be found (listing where it looked).
 * @throws ConnectionClosedError (reason "error") when the process cannot be started, e.g. its
 *   working directory does not exist.
 */
export async function spawnCodexAppServer(options: SpawnCodexAppServerOptions = {}): Promise<NodeStdioTransport> {
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
  let transport: NodeStdioTransport;
  try {
    transport = new NodeStdioTransport(child, options);
  } catch (error) {
    child.kill("SIGKILL"); // never leave a process nobody can reach
    throw error;
  }

  // Node sets the pid synchronously when the process started; without one, 'error' follows and
  // the transport closes with a message that says what was missing.
  if (child.pid === undefined) throw new ConnectionClosedError(await transport.closed);
  return transport;
}
