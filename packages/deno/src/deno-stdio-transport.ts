import { WebStreamProcessTransport, type ProcessTransportOptions, type WebStreamProcess } from "@codex-rpc/core/process";
import { terminateOnUnload } from "./terminate-on-unload.js";

/**
 * The parts of a `Deno.ChildProcess` spawned with all three streams `"piped"` that the transport
 * uses. A real `Deno.ChildProcess` is one; the type names nothing of Deno so the package's types
 * work wherever the web streams are declared.
 */
export interface DenoChildProcess {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** `code` is 128 + the signal's number when a signal ended the process. */
  readonly status: Promise<{ readonly code: number; readonly signal: string | null }>;
  kill(signal?: "SIGTERM" | "SIGKILL"): void;
}

/** The options of every process transport (see ProcessTransportOptions in @codex-rpc/core). */
export type DenoStdioTransportOptions = ProcessTransportOptions;

/**
 * The Codex app-server over a Deno child process's stdio (web streams both ways), spawned with all
 * three streams piped (see `spawnCodexAppServer`, which also finds the binary); wrap it right after
 * spawning. Core's WebStreamProcessTransport runs it: NDJSON framing, the stderr tail, the exit code
 * and signal in every close info, stdin end → SIGTERM → SIGKILL on `close()`, and every wait settling
 * once the process is gone, so a program ends by itself after the server does. This adapts the
 * `Deno.ChildProcess` to it, and sends SIGTERM to a server still running when the program unloads.
 */
export class DenoStdioTransport extends WebStreamProcessTransport {
  constructor(child: DenoChildProcess, options: DenoStdioTransportOptions = {}) {
    super(webStreamProcess(child), options);
    terminateOnUnload(child);
  }
}

/** A Deno child process as core's WebStreamProcessTransport takes it. */
function webStreamProcess(child: DenoChildProcess): WebStreamProcess {
  const stdin = child.stdin.getWriter();
  // A broken pipe rejects the writer's `closed` too; the failed write already reports it, and an
  // unhandled rejection would end a Deno program.
  stdin.closed.catch(() => {});
  return {
    pid: child.pid,
    stdin: {
      write: (bytes) => stdin.write(bytes),
      end: () => stdin.close(),
    },
    stdout: child.stdout,
    stderr: child.stderr,
    // Deno reports a signal's death as code 128 + n; the close info says "no exit code" instead.
    exited: child.status.then((status) => (status.signal ? { exitCode: null, signal: status.signal } : { exitCode: status.code, signal: null })),
    // Deno throws when the process exited in the meantime; the transport reports it as a diagnostic.
    kill: (signal) => child.kill(signal),
  };
}
