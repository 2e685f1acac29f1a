import type { Observable } from "rxjs";
import type { TransportCloseInfo } from "../errors/errors.js";
import type { JsonRpcMessage } from "../framing/json-rpc-message.js";
import { createNdjsonTransport, type NdjsonTransport } from "../transport/ndjson-transport.js";
import type { ProcessTransportOptions } from "./process-transport-options.js";
import { settlesWithin } from "../util/settles-within.js";
import { shutDownProcess } from "./shutdown-sequence.js";
import { asyncDisposeSymbol } from "../util/dispose-symbols.js";
import { readStderrInto, type StderrReader } from "./stderr-reader.js";
import { StderrTail } from "./stderr-tail.js";
import type { Transport, TransportDiagnostic } from "../transport/transport.js";

/** How a process ended: its exit code, or the signal that ended it (and then no exit code). */
export interface ProcessExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** A process's stdin, as a WebStreamProcessTransport writes and ends it. */
export interface ProcessStdin {
  /**
   * Writes one encoded line; the next write waits for this one. Rejects (or throws) on a broken
   * pipe: the transport turns that into the exit's ConnectionClosedError once the exit is seen.
   */
  write(bytes: Uint8Array): Promise<void> | void;
  /**
   * Ends stdin; called at most once. It may return a promise (a writer's `close()`). A throw or a
   * rejection (a broken pipe) is ignored: the process is gone anyway.
   */
  end(): unknown;
}

/**
 * A child process spawned with all three streams piped, with stdout and stderr as web streams (as
 * Deno and Bun give them). A runtime adapter builds one from its runtime's child process.
 */
export interface WebStreamProcess {
  readonly pid: number;
  readonly stdin: ProcessStdin;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  /** Resolves once the process has exited, with how (a signal's death: `exitCode` null). */
  readonly exited: Promise<ProcessExit>;
  /** Sends a signal; a throw (the process exited in the meantime) is reported as a diagnostic. */
  kill(signal: "SIGTERM" | "SIGKILL"): void;
}

/**
 * After the exit, how long to wait for stderr to drain (at most half of `eofGraceMs`, so the exit
 * is reported before stdout's end-of-file grace runs out). A grandchild that inherited the pipe
 * can hold it open forever; the exit is what matters.
 */
const STDERR_AFTER_EXIT_MS = 250;

/**
 * The Codex app-server over a child process's stdio given as web streams: NDJSON on stdin/stdout,
 * stderr kept as a cleaned tail (its lines also arrive as `stderr` diagnostics). The runtime adapters
 * (Deno's, Bun's) extend it, handing over their child process as a WebStreamProcess; wrap a
 * process right after spawning it.
 *
 * Every close info carries the stderr tail; an exit carries the exit code and signal. Every read
 * and wait settles once the process is gone, so a program ends by itself after the server does.
 * `close()` ends stdin, waits for the exit, then sends SIGTERM, then SIGKILL.
 */
export class WebStreamProcessTransport implements Transport {
  readonly messages$: Observable<JsonRpcMessage>;
  readonly diagnostics$: Observable<TransportDiagnostic>;
  readonly closed: Promise<TransportCloseInfo>;

  readonly #process: WebStreamProcess;
  readonly #transport: NdjsonTransport;
  readonly #stderr: StderrTail;
  readonly #stdinEndTimeoutMs: number;
  readonly #sigtermTimeoutMs: number;
  readonly #stderrAfterExitMs: number;
  /** Resolves once the process is gone, with how it ended. */
  readonly #gone: Promise<TransportCloseInfo>;
  #isGone = false;
  #stdinEnded = false;

  constructor(process: WebStreamProcess, options: ProcessTransportOptions = {}) {
    this.#process = process;
    this.#stdinEndTimeoutMs = options.stdinEndTimeoutMs ?? 2000;
    this.#sigtermTimeoutMs = options.sigtermTimeoutMs ?? 2000;
    this.#stderrAfterExitMs = Math.min(STDERR_AFTER_EXIT_MS, (options.eofGraceMs ?? 1000) / 2);
    this.#stderr = new StderrTail(options.stderrTailLines ?? 50, (line) => this.#transport.reportDiagnostic({ kind: "stderr", message: line }));

    this.#gone = this.#watchProcess(readStderrInto(process.stderr, this.#stderr));
    this.#transport = createNdjsonTransport({
      input: process.stdout,
      // A broken pipe rejects the write; the NDJSON transport turns it into the exit's ConnectionClosedError.
      write: (bytes) => process.stdin.write(bytes),
      shutdown: () => this.#shutdown(),
      ended: this.#gone,
      maxLineBytes: options.maxLineBytes,
      eofGraceMs: options.eofGraceMs,
      completeCloseInfo: (info) => ({ ...info, stderrTail: this.#stderr.lines() }),
    });
    this.messages$ = this.#transport.messages$;
    this.diagnostics$ = this.#transport.diagnostics$;
    this.closed = this.#transport.closed;
  }

  /** The server's process id. */
  get pid(): number {
    return this.#process.pid;
  }

  /** The last stderr lines, oldest first: ANSI stripped, secrets redacted. */
  stderrTail(): string[] {
    return this.#stderr.lines();
  }

  send(message: JsonRpcMessage): Promise<void> {
    return this.#transport.send(message);
  }

  /** Ends stdin, waits for the exit, then SIGTERM, then SIGKILL; resolves once the process is gone. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /** `await using transport = …` closes it when the block ends (see `close()`). */
  async [asyncDisposeSymbol](): Promise<void> {
    await this.close();
  }

  async #watchProcess(stderr: StderrReader): Promise<TransportCloseInfo> {
    let info: TransportCloseInfo;
    try {
      const { exitCode, signal } = await this.#process.exited;
      info = signal ? { reason: "exit", exitCode: null, signal } : { reason: "exit", exitCode, signal: null };
    } catch (error) {
      info = { reason: "error", error };
    }
    this.#isGone = true; // no signal can reach it any more
    if (!(await settlesWithin(stderr.done, this.#stderrAfterExitMs))) stderr.cancel();
    this.#stderr.flush();
    this.#endStdin(); // frees the pipe; a no-op when close() ended it already
    return { ...info, stderrTail: this.#stderr.lines() };
  }

  async #shutdown(): Promise<TransportCloseInfo> {
    await shutDownProcess({
      gone: this.#gone,
      isGone: () => this.#isGone,
      endStdin: () => this.#endStdin(),
      kill: (signal) => this.#process.kill(signal),
      onKillError: (signal, error) => this.#transport.reportDiagnostic({ kind: "other", message: `could not send ${signal}: ${(error as Error).message}` }),
      stdinEndTimeoutMs: this.#stdinEndTimeoutMs,
      sigtermTimeoutMs: this.#sigtermTimeoutMs,
    });
    return this.#gone;
  }

  #endStdin(): void {
    if (this.#stdinEnded) return;
    this.#stdinEnded = true;
    try {
      const ended = this.#process.stdin.end();
      // Fails on a broken pipe: the process is gone anyway.
      if (isPromiseLike(ended)) ended.then(undefined, () => {});
    } catch {
      // Same: a pipe nobody reads any more.
    }
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
