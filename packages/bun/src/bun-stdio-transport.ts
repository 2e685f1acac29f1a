import {
  StderrTail,
  createNdjsonTransport,
  readStderrInto,
  settlesWithin,
  type JsonRpcMessage,
  type NdjsonTransport,
  type ProcessTransportOptions,
  type StderrReader,
  type Transport,
  type TransportCloseInfo,
  type TransportDiagnostic,
} from "@codex-rpc/core";
import type { Observable } from "rxjs";
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
 * After the exit, how long to wait for stderr to drain (at most half of `eofGraceMs`, so the exit
 * is reported before stdout's end-of-file grace runs out). A grandchild that inherited the pipe
 * can hold it open forever; the exit is what matters.
 */
const STDERR_AFTER_EXIT_MS = 250;

/**
 * The Codex app-server over a Bun child process's stdio: NDJSON on stdin (a `FileSink`) and stdout
 * (a web stream), stderr kept as a cleaned tail. Wraps a process spawned with all three streams
 * piped (see `spawnCodexAppServer`, which also finds the binary); wrap it right after spawning.
 *
 * Every close info carries the stderr tail; an exit carries the exit code and signal. Every read
 * and wait settles once the process is gone: in Bun a top-level `await` on a promise that never
 * settles spins a core instead of ending the program.
 */
export class BunStdioTransport implements Transport {
  readonly messages: Observable<JsonRpcMessage>;
  readonly diagnostics: Observable<TransportDiagnostic>;
  readonly closed: Promise<TransportCloseInfo>;

  readonly #child: BunSubprocess;
  readonly #transport: NdjsonTransport;
  readonly #stderr: StderrTail;
  readonly #stdinEndTimeoutMs: number;
  readonly #sigtermTimeoutMs: number;
  readonly #stderrAfterExitMs: number;
  /** Resolves once the process is gone, with how it ended. */
  readonly #gone: Promise<TransportCloseInfo>;
  #isGone = false;
  #stdinEnded = false;

  constructor(child: BunSubprocess, options: BunStdioTransportOptions = {}) {
    this.#child = child;
    this.#stdinEndTimeoutMs = options.stdinEndTimeoutMs ?? 2000;
    this.#sigtermTimeoutMs = options.sigtermTimeoutMs ?? 2000;
    this.#stderrAfterExitMs = Math.min(STDERR_AFTER_EXIT_MS, (options.eofGraceMs ?? 1000) / 2);
    this.#stderr = new StderrTail(options.stderrTailLines ?? 50, (line) => this.#transport.reportDiagnostic({ kind: "stderr", message: line }));

    this.#gone = this.#watchProcess(readStderrInto(child.stderr, this.#stderr));
    this.#transport = createNdjsonTransport({
      input: child.stdout,
      write: (bytes) => this.#write(bytes),
      shutdown: () => this.#shutdown(),
      ended: this.#gone,
      maxLineBytes: options.maxLineBytes,
      eofGraceMs: options.eofGraceMs,
      completeCloseInfo: (info) => ({ ...info, stderrTail: this.#stderr.lines() }),
    });
    this.messages = this.#transport.messages;
    this.diagnostics = this.#transport.diagnostics;
    this.closed = this.#transport.closed;
    terminateOnExit(child, this.#gone);
  }

  /** The server's process id. */
  get pid(): number {
    return this.#child.pid;
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

  /**
   * Buffers the line and flushes it, waiting only when the pipe is full (flush returns a promise
   * then). A broken pipe is left to the NDJSON transport, which turns it into the exit's
   * ConnectionClosedError once the exit is seen.
   */
  async #write(bytes: Uint8Array): Promise<void> {
    const stdin = this.#child.stdin;
    stdin.write(bytes);
    await stdin.flush();
  }

  async #watchProcess(stderr: StderrReader): Promise<TransportCloseInfo> {
    let info: TransportCloseInfo;
    try {
      await this.#child.exited;
      const signal = this.#child.signalCode;
      info = signal ? { reason: "exit", exitCode: null, signal } : { reason: "exit", exitCode: this.#child.exitCode, signal: null };
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
    if (!this.#isGone) {
      this.#endStdin(); // codex exits by itself when its input ends
      if (!(await settlesWithin(this.#gone, this.#stdinEndTimeoutMs))) {
        this.#kill("SIGTERM");
        if (!(await settlesWithin(this.#gone, this.#sigtermTimeoutMs))) this.#kill("SIGKILL");
      }
    }
    return this.#gone;
  }

  #endStdin(): void {
    if (this.#stdinEnded) return;
    this.#stdinEnded = true;
    try {
      const ended = this.#child.stdin.end();
      if (typeof ended === "object") ended.catch(() => {}); // fails on a broken pipe: the process is gone anyway
    } catch {
      // Same: a pipe nobody reads any more.
    }
  }

  #kill(signal: "SIGTERM" | "SIGKILL"): void {
    try {
      this.#child.kill(signal);
    } catch (error) {
      this.#transport.reportDiagnostic({ kind: "other", message: `could not send ${signal}: ${(error as Error).message}` });
    }
  }
}
