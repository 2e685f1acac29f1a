import { ConnectionClosedError } from "@codex-rpc/core";
import { DenoStdioTransport, type DenoStdioTransportOptions } from "./deno-stdio-transport.js";
import { findCodexBinary } from "./find-codex-binary.js";

export interface SpawnCodexAppServerOptions extends DenoStdioTransportOptions {
  /** The codex binary to run. Default: `findCodexBinary()` (CODEX_BIN, the @openai/codex package, PATH). */
  readonly codexPath?: string;
  /** Extra arguments after `app-server`, e.g. `["-c", "model=\"o4-mini\""]`. */
  readonly args?: readonly string[];
  /**
   * The server's entire environment, passed as is: nothing is added or merged (entries whose value
   * is undefined are left out). Default: this program's environment. To add a variable, pass
   * `{ ...Deno.env.toObject(), CODEX_HOME: dir }`.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The server's working directory. Default: this program's. */
  readonly cwd?: string;
}

/**
 * Starts `codex app-server` with `Deno.Command` and resolves with its transport once the process
 * is running. Needs `--allow-run` (for the codex binary), `--allow-read` and
 * `--allow-env=CODEX_BIN,PATH` for the binary search (see the README).
 *
 * @throws CodexRpcError `BINARY_NOT_FOUND` when no codex binary can be found (listing where it looked).
 * @throws ConnectionClosedError (reason "error") when the process cannot be started, e.g. its
 *   working directory does not exist or `--allow-run` does not cover it.
 */
export async function spawnCodexAppServer(options: SpawnCodexAppServerOptions = {}): Promise<DenoStdioTransport> {
  const binary = findCodexBinary({ explicitPath: options.codexPath });
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(binary, {
      args: ["app-server", ...(options.args ?? [])],
      // Deno adds `env` to the parent's environment unless told to clear it first.
      ...(options.env ? { env: definedEntries(options.env), clearEnv: true } : {}),
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

function definedEntries(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) defined[name] = value;
  return defined;
}
