import type { ProcessTransportOptions } from "./process-transport-options.js";

/**
 * How `spawnCodexAppServer` (and `connectCodex`) start `codex app-server`, the same in every
 * runtime package (stdio, Deno, Bun): declared once here, re-exported by each.
 */
export interface SpawnCodexAppServerOptions extends ProcessTransportOptions {
  /** The codex binary to run. Default: `findCodexBinary()` (CODEX_BIN, the @openai/codex package, PATH). */
  readonly codexPath?: string;
  /** Extra arguments after `app-server`, e.g. `["-c", "model=\"o4-mini\""]`. */
  readonly args?: readonly string[];
  /**
   * Variables for the server, on top of what codex needs from this program's environment (PATH,
   * HOME, CODEX_HOME, locale, proxies …: `CODEX_ENVIRONMENT_NEEDS` in @codex-rpc/core/process; on
   * Deno, reading them needs `--allow-env` for those names, and unreadable ones are left out).
   * Nothing else of this program's environment is passed — no API keys or tokens — since codex runs
   * commands a model chose and they see it. A name set here wins; `NAME: undefined` withholds one
   * of the needed ones.
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
