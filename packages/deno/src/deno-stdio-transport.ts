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
 * After the exit, how long to wait for stderr to drain (at most half of `eofGraceMs`, so the exit
 * is reported before stdout's end-of-file grace runs out). A grandchild that inherited the pipe
 * can hold it open forever; the exit is what matters.
 */
const STDERR_AFTER_EXIT_MS = 250;

/**
 * The Codex app-server over a Deno child process's stdio: NDJSON on stdin/stdout (web streams),
 * stderr kept as a cleaned tail. Wraps a process spawned with all three streams piped (see
 * `spawnCodexAppServer`, which also finds the binary); wrap it right after spawning.
 *
 * Every close info carries the stderr tail; an exit carries the exit code and signal. Every read
 * and wait settles once the process is gone, so a program ends by itself after the server does.
 */
export class DenoStdioTransport implements Transport {
  readonly messages: Observable<JsonRpcMessage>;
  readonly diagnostics: Observable<TransportDiagnostic>;
  readonly closed: Promise<TransportCloseInfo>;

  readonly #child: DenoChildProcess;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  readonly #transport: NdjsonTransport;
  readonly #stderr: StderrTail;
  readonly #stdinEndTimeoutMs: number;
  readonly #sigtermTimeoutMs: number;
  readonly #stderrAfterExitMs: number;
  /** Resolves once the process is gone, with how it ended. */
  readonly #gone: Promise<TransportCloseInfo>;
  #isGone = false;
  #stdinClosed = false;

  constructor(child: DenoChildProcess, options: DenoStdioTransportOptions = {}) {
    this.#child = child;
    this.#stdinEndTimeoutMs = options.stdinEndTimeoutMs ?? 2000;
    this.#sigtermTimeoutMs = options.sigtermTimeoutMs ?? 2000;
    this.#stderrAfterExitMs = Math.min(STDERR_AFTER_EXIT_MS, (options.eofGraceMs ?? 1000) / 2);
    this.#stderr = new StderrTail(options.stderrTailLines ?? 50, (line) => this.#transport.reportDiagnostic({ kind: "stderr", message: line }));
    this.#stdin = child.stdin.getWriter();
    // A broken pipe rejects the writer's `closed` too; the failed write already reports it, and an
    // unhandled rejection would end a Deno program.
    this.#stdin.closed.catch(() => {});

    this.#gone = this.#watchProcess(readStderrInto(child.stderr, this.#stderr));
    this.#transport = createNdjsonTransport({
      input: child.stdout,
      // A broken pipe rejects the write; the NDJSON transport turns it into the exit's ConnectionClosedError.
      write: (bytes) => this.#stdin.write(bytes),
      shutdown: () => this.#shutdown(),
      ended: this.#gone,
      maxLineBytes: options.maxLineBytes,
      eofGraceMs: options.eofGraceMs,
      completeCloseInfo: (info) => ({ ...info, stderrTail: this.#stderr.lines() }),
    });
    this.messages = this.#transport.messages;
    this.diagnostics = this.#transport.diagnostics;
    this.closed = this.#transport.closed;
    terminateOnUnload(child, this.#gone);
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

  async #watchProcess(stderr: StderrReader): Promise<TransportCloseInfo> {
    let info: TransportCloseInfo;
    try {
      const status = await this.#child.status;
      // Deno reports a signal's death as code 128 + n; the close info says "no exit code" instead.
      info = status.signal ? { reason: "exit", exitCode: null, signal: status.signal } : { reason: "exit", exitCode: status.code, signal: null };
    } catch (error) {
      info = { reason: "error", error };
    }
    this.#isGone = true; // no signal can reach it any more
    if (!(await settlesWithin(stderr.done, this.#stderrAfterExitMs))) stderr.cancel();
    this.#stderr.flush();
    this.#closeStdin(); // frees the pipe; a no-op when close() ended it already
    return { ...info, stderrTail: this.#stderr.lines() };
  }

  async #shutdown(): Promise<TransportCloseInfo> {
    if (!this.#isGone) {
      this.#closeStdin(); // codex exits by itself when its input ends
      if (!(await settlesWithin(this.#gone, this.#stdinEndTimeoutMs))) {
        this.#kill("SIGTERM");
        if (!(await settlesWithin(this.#gone, this.#sigtermTimeoutMs))) this.#kill("SIGKILL");
      }
    }
    return this.#gone;
  }

  #closeStdin(): void {
    if (this.#stdinClosed) return;
    this.#stdinClosed = true;
    this.#stdin.close().catch(() => {}); // fails on a broken pipe: the process is gone anyway
  }

  #kill(signal: "SIGTERM" | "SIGKILL"): void {
    try {
      this.#child.kill(signal);
    } catch (error) {
      // Deno throws when the process exited in the meantime.
      this.#transport.reportDiagnostic({ kind: "other", message: `could not send ${signal}: ${(error as Error).message}` });
    }
  }
}
