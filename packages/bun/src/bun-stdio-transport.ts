import { WebStreamProcessTransport, type ProcessTransportOptions, type WebStreamProcess } from "@codex-rpc/core/process";
import { terminateOnExit } from "./terminate-on-exit.js";

/** A Bun `FileSink`: the stdin of a process spawned with `stdin: "pipe"`. */
export interface BunFileSink {
  write(chunk: Uint8Array): number;
  /** A promise when the pipe is full: resolves once the buffered bytes are written. */
  flush(): number | Promise<number>;
  end(): number | Promise<number>;
}

/**
 * The parts of a Bun `Subprocess` spawned with all three streams `"pipe"` that the transport uses.
 * A real `Subprocess` is one; the type names nothing of Bun so the package's types work anywhere.
 */
export interface BunSubprocess {
  readonly pid: number;
  readonly stdin: BunFileSink;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** Resolves once the process has exited; `exitCode` and `signalCode` say how. */
  readonly exited: Promise<number>;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: "SIGTERM" | "SIGKILL"): void;
}

/** The options of every process transport (see ProcessTransportOptions in @codex-rpc/core). */
export type BunStdioTransportOptions = ProcessTransportOptions;

/**
 * The Codex app-server over a Bun subprocess's stdio (a `FileSink` stdin, web-stream stdout and
 * stderr), spawned with all three piped (see `spawnCodexAppServer`, which also finds the binary);
 * wrap it right after spawning. Core's WebStreamProcessTransport runs it (framing, stderr tail, exit
 * code and signal, stdin end → SIGTERM → SIGKILL); this adapts the subprocess to it, and sends
 * SIGTERM to a server still running when this process exits. Every wait settles once the process
 * is gone: in Bun a top-level `await` on a promise that never settles spins a core instead of
 * ending the program.
 */
export class BunStdioTransport extends WebStreamProcessTransport {
  constructor(child: BunSubprocess, options: BunStdioTransportOptions = {}) {
    super(webStreamProcess(child), options);
    terminateOnExit(child);
  }
}

/** A Bun subprocess as core's WebStreamProcessTransport takes it. */
function webStreamProcess(child: BunSubprocess): WebStreamProcess {
  return {
    pid: child.pid,
    stdin: {
      // Buffers the line and flushes it, waiting only when the pipe is full (flush returns a
      // promise then). A broken pipe rejects: the transport turns it into the exit's
      // ConnectionClosedError once the exit is seen.
      write: async (bytes) => {
        child.stdin.write(bytes);
        await child.stdin.flush();
      },
      end: () => child.stdin.end(),
    },
    stdout: child.stdout,
    stderr: child.stderr,
    // Bun sets `exitCode` (null after a signal) and `signalCode` before `exited` resolves.
    exited: child.exited.then(() => {
      const signal = child.signalCode;
      return signal ? { exitCode: null, signal } : { exitCode: child.exitCode, signal: null };
    }),
    kill: (signal) => child.kill(signal),
  };
}
