// BunStdioTransport's process lifecycle against a fake Bun Subprocess (a FileSink stdin, web-stream
// stdout/stderr, `exited` with `exitCode`/`signalCode`, as Bun gives them), on Node: the orderings
// a real server produces only sometimes (a write failing before the exit is seen, a grandchild
// holding stderr, a server ignoring SIGTERM). The real thing runs in bun-app-server.test.ts.
import { ConnectionClosedError, type TransportDiagnostic } from "@codex-rpc/core";
import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { BunStdioTransport, type BunSubprocess } from "../src/bun-stdio-transport.js";

interface FakeBunProcess {
  readonly child: BunSubprocess;
  readonly written: string[];
  readonly signals: string[];
  stdout(text: string): void;
  stderr(text: string): void;
  endStdout(): void;
  endStderr(): void;
  /** The process ends: `exitCode`/`signalCode` are set, then `exited` resolves (streams end separately). */
  exit(exitCode: number | null, signalCode: string | null): void;
  readonly stderrCancelled: boolean;
}

function fakeBunProcess(behaviour: { onStdinEnd?(fake: FakeBunProcess): void; onSignal?(fake: FakeBunProcess, signal: string): void; failFlush?: Error } = {}): FakeBunProcess {
  const encoder = new TextEncoder();
  let stdoutController!: ReadableStreamDefaultController<Uint8Array>;
  let stderrController!: ReadableStreamDefaultController<Uint8Array>;
  let resolveExited!: (code: number) => void;
  let stderrCancelled = false;
  let buffered = "";
  const written: string[] = [];
  const signals: string[] = [];
  const state = { exitCode: null as number | null, signalCode: null as string | null };
  const fake: FakeBunProcess = {
    child: {
      pid: 4343,
      stdin: {
        write: (chunk) => {
          buffered += new TextDecoder().decode(chunk);
          return chunk.byteLength;
        },
        flush: () => {
          if (behaviour.failFlush) return Promise.reject(behaviour.failFlush);
          written.push(buffered);
          const flushed = buffered.length;
          buffered = "";
          return flushed;
        },
        end: () => {
          behaviour.onStdinEnd?.(fake);
          return 0;
        },
      },
      stdout: new ReadableStream<Uint8Array>({ start: (controller) => void (stdoutController = controller) }),
      stderr: new ReadableStream<Uint8Array>({
        start: (controller) => void (stderrController = controller),
        cancel: () => void (stderrCancelled = true),
      }),
      exited: new Promise((resolve) => (resolveExited = resolve)),
      get exitCode() {
        return state.exitCode;
      },
      get signalCode() {
        return state.signalCode;
      },
      kill: (signal = "SIGTERM") => {
        signals.push(signal);
        behaviour.onSignal?.(fake, signal);
      },
    },
    written,
    signals,
    stdout: (text) => stdoutController.enqueue(encoder.encode(text)),
    stderr: (text) => stderrController.enqueue(encoder.encode(text)),
    endStdout: () => stdoutController.close(),
    endStderr: () => stderrController.close(),
    exit: (exitCode, signalCode) => {
      state.exitCode = exitCode;
      state.signalCode = signalCode;
      resolveExited(exitCode ?? 137);
    },
    get stderrCancelled() {
      return stderrCancelled;
    },
  };
  return fake;
}

/** A process that ends the way a real one does: streams closed, then the exit. */
function exitFully(fake: FakeBunProcess, exitCode: number | null, signalCode: string | null): void {
  fake.endStdout();
  fake.endStderr();
  fake.exit(exitCode, signalCode);
}

describe("BunStdioTransport (fake Bun Subprocess)", () => {
  it("frames stdout into messages, flushes each send as a line, and turns stderr into cleaned diagnostics", async () => {
    const fake = fakeBunProcess();
    const transport = new BunStdioTransport(fake.child);
    const diagnostics = firstValueFrom(transport.diagnostics.pipe(toArray()));
    const messages = firstValueFrom(transport.messages.pipe(toArray()));
    await transport.send({ id: 1, method: "initialize", params: {} });
    expect(fake.written).toEqual(['{"id":1,"method":"initialize","params":{}}\n']);
    fake.stdout('{"id":1,"result":{}}\n{"method":"no');
    fake.stdout('tice"}\n');
    fake.stderr("\u001b[31mERROR\u001b[0m token=abc123secret\n");
    exitFully(fake, 0, null);
    expect(await messages).toEqual([{ id: 1, result: {} }, { method: "notice" }]);
    expect((await diagnostics).filter((d: TransportDiagnostic) => d.kind === "stderr").map((d) => d.message)).toEqual(["ERROR token=[REDACTED]"]);
    expect(transport.stderrTail()).toEqual(["ERROR token=[REDACTED]"]);
  });

  it("a flush that fails on a broken pipe before the exit is seen rejects with the typed close, not EPIPE", async () => {
    const brokenPipe = Object.assign(new Error("EPIPE: broken pipe, write"), { code: "EPIPE" });
    const fake = fakeBunProcess({ failFlush: brokenPipe });
    const transport = new BunStdioTransport(fake.child);
    const sent = transport.send({ id: 1, method: "initialize" }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    fake.stderr("Error: CODEX_HOME points to a path that does not exist\n");
    exitFully(fake, 1, null);
    const error = await sent;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as ConnectionClosedError).close).toMatchObject({ reason: "exit", exitCode: 1, signal: null, stderrTail: ["Error: CODEX_HOME points to a path that does not exist"] });
  });

  it("reports a signal's death as exit code null and the signal", async () => {
    const fake = fakeBunProcess();
    const transport = new BunStdioTransport(fake.child);
    exitFully(fake, null, "SIGKILL");
    expect(await transport.closed).toMatchObject({ reason: "exit", exitCode: null, signal: "SIGKILL" });
  });

  it("closes soon after the exit even when a grandchild keeps stderr open, and stops reading it", async () => {
    const fake = fakeBunProcess();
    const transport = new BunStdioTransport(fake.child, { eofGraceMs: 100 });
    fake.stderr("last words\n");
    fake.endStdout();
    const exitedAt = performance.now();
    fake.exit(2, null); // stderr never ends
    const info = await transport.closed;
    expect(performance.now() - exitedAt).toBeLessThan(1000);
    expect(info).toMatchObject({ reason: "exit", exitCode: 2, stderrTail: ["last words"] });
    expect(fake.stderrCancelled).toBe(true);
  });

  it("close() ends stdin and sends no signal when the server exits by itself", async () => {
    const fake = fakeBunProcess({ onStdinEnd: (self) => exitFully(self, 0, null) });
    const transport = new BunStdioTransport(fake.child);
    await transport.close();
    expect(fake.signals).toEqual([]);
    expect(await transport.closed).toMatchObject({ reason: "closed", exitCode: 0 });
    await expect(transport.send({ method: "initialized" })).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it("close() escalates to SIGTERM, then SIGKILL, for a server that ignores both stdin EOF and SIGTERM", async () => {
    const fake = fakeBunProcess({ onSignal: (self, signal) => signal === "SIGKILL" && exitFully(self, null, "SIGKILL") });
    const transport = new BunStdioTransport(fake.child, { stdinEndTimeoutMs: 30, sigtermTimeoutMs: 30 });
    await transport.close();
    expect(fake.signals).toEqual(["SIGTERM", "SIGKILL"]);
    expect(await transport.closed).toMatchObject({ reason: "closed", exitCode: null, signal: "SIGKILL" });
  });
});
