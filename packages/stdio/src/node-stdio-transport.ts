import type { JsonRpcMessage, Transport, TransportCloseInfo, TransportDiagnostic } from "@codex-rpc/core";
import { asyncDisposeSymbol, createNdjsonTransport, type NdjsonInputSink, type NdjsonTransport } from "@codex-rpc/core/transport";
import { StderrTail, describeSpawnError, shutDownProcess, type ProcessTransportOptions } from "@codex-rpc/core/process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { Socket } from "node:net";
import { nodeDecoding } from "./node-decoding.js";
import type { Observable } from "rxjs";
import { terminateOnParentExit } from "./terminate-on-parent-exit.js";

export interface NodeStdioTransportOptions extends ProcessTransportOptions {
  /**
   * The working directory the process was spawned in, if not this process's: named in the error
   * when the start fails, since Node reports a missing working directory as ENOENT of the command.
   */
  readonly cwd?: string;
}

/**
 * After `'exit'`, how long to wait for `'close'` (stdout and stderr drained). A grandchild that
 * inherited the pipes can hold them open forever; the exit is what matters.
 */
const STREAMS_AFTER_EXIT_MS = 250;

/**
 * The Codex app-server over a child process's stdio: NDJSON on stdin/stdout, stderr kept as a
 * cleaned tail. Wraps a process spawned with piped stdio (see `spawnCodexAppServer`, which also
 * finds the binary); wrap it right after spawning so no event is missed.
 *
 * Every close info carries the stderr tail; an exit carries the exit code and signal.
 */
export class NodeStdioTransport implements Transport {
  readonly messages$: Observable<JsonRpcMessage>;
  readonly diagnostics$: Observable<TransportDiagnostic>;
  readonly closed: Promise<TransportCloseInfo>;

  readonly #child: ChildProcess;
  readonly #transport: NdjsonTransport;
  readonly #stderr: StderrTail;
  readonly #stdinEndTimeoutMs: number;
  readonly #sigtermTimeoutMs: number;
  /** Resolves once the process is gone (or never started), with how it ended. */
  readonly #gone: Promise<TransportCloseInfo>;
  #isGone = false;
  #endInput: () => void = () => {};

  constructor(child: ChildProcess, options: NodeStdioTransportOptions = {}) {
    const { stdin, stdout, stderr } = child;
    if (!stdin || !stdout || !stderr) throw new TypeError("NodeStdioTransport needs a child process spawned with stdio: 'pipe'");
    this.#child = child;
    this.#stdinEndTimeoutMs = options.stdinEndTimeoutMs ?? 2000;
    this.#sigtermTimeoutMs = options.sigtermTimeoutMs ?? 2000;
    this.#stderr = new StderrTail(options.stderrTailLines ?? 50, (line) => this.#transport.reportDiagnostic({ kind: "stderr", message: line }));

    // An EPIPE here means the server went away; the failed write rejects its send (with the
    // ConnectionClosedError of the exit, once seen). Without a listener Node would throw it as an
    // uncaught error.
    stdin.on("error", () => {});
    stderr.setEncoding("utf8");
    stderr.on("data", (text: string) => this.#stderr.push(text));
    stderr.on("error", () => {});

    this.#gone = this.#watchProcess(options);
    this.#transport = createNdjsonTransport({
      input: (sink) => this.#readStdout(sink),
      write: (bytes) =>
        new Promise<void>((resolve, reject) => {
          stdin.write(bytes, (error) => (error ? reject(error) : resolve()));
        }),
      shutdown: () => this.#shutdown(),
      ended: this.#gone,
      maxLineBytes: options.maxLineBytes,
      ...nodeDecoding,
      // A pipe (a net.Socket) hands out a new Buffer per read and never writes to it again; any
      // other stream in its place (a wrapper, a PassThrough) may reuse its buffers, so it is copied.
      retainChunks: this.#child.stdout instanceof Socket,
      eofGraceMs: options.eofGraceMs,
      completeCloseInfo: (info) => ({ ...info, stderrTail: this.#stderr.lines() }),
    });
    this.messages$ = this.#transport.messages$;
    this.diagnostics$ = this.#transport.diagnostics$;
    this.closed = this.#transport.closed;
    terminateOnParentExit(child);
  }

  /** The server's process id (undefined if it failed to start). */
  get pid(): number | undefined {
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

  /** `await using transport = …` closes it when the block ends (see `close()`). */
  async [asyncDisposeSymbol](): Promise<void> {
    await this.close();
  }

  #readStdout(sink: NdjsonInputSink): void {
    const stdout = this.#child.stdout!;
    this.#endInput = () => sink.end();
    stdout.on("data", (chunk: Uint8Array) => sink.data(chunk));
    stdout.once("end", () => sink.end());
    stdout.on("error", (error) => sink.error(error));
  }

  #watchProcess(options: NodeStdioTransportOptions): Promise<TransportCloseInfo> {
    const child = this.#child;
    return new Promise<TransportCloseInfo>((resolve) => {
      let streamsTimer: NodeJS.Timeout | undefined;
      const settle = (info: TransportCloseInfo): void => {
        if (this.#isGone) return;
        this.#isGone = true;
        clearTimeout(streamsTimer);
        this.#stderr.flush();
        this.#endInput(); // no-op when stdout already ended
        // Usually closed already; not when a grandchild inherited the pipes and still holds them.
        child.stdin?.destroy();
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve({ ...info, stderrTail: this.#stderr.lines() });
      };
      child.on("error", (error) => {
        if (child.pid === undefined) {
          settle({ reason: "error", error: describeSpawnError(child.spawnfile, options.cwd, error, existsSync) });
        } else if (!this.#isGone) {
          this.#transport.reportDiagnostic({ kind: "other", message: `child process error: ${error.message}` });
        }
      });
      child.once("exit", (exitCode, signal) => {
        streamsTimer = setTimeout(() => settle({ reason: "exit", exitCode, signal }), STREAMS_AFTER_EXIT_MS);
      });
      child.once("close", (exitCode: number | null, signal: NodeJS.Signals | null) => {
        settle({ reason: "exit", exitCode, signal });
      });
    });
  }

  async #shutdown(): Promise<TransportCloseInfo> {
    await shutDownProcess({
      gone: this.#gone,
      isGone: () => this.#isGone,
      endStdin: () => this.#child.stdin?.end(),
      kill: (signal) => this.#child.kill(signal),
      onKillError: (signal, error) => this.#transport.reportDiagnostic({ kind: "other", message: `could not send ${signal}: ${(error as Error).message}` }),
      stdinEndTimeoutMs: this.#stdinEndTimeoutMs,
      sigtermTimeoutMs: this.#sigtermTimeoutMs,
    });
    return this.#gone;
  }
}
