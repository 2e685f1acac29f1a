// The process-lifecycle cases every web-stream process transport (Deno's, Bun's) passes against a
// fake of its runtime's child process, on Node: the orderings a real server produces only sometimes
// (a write failing before the exit is seen, a grandchild holding stderr, a server ignoring
// SIGTERM). Each package's test file supplies the fake, shaped as its runtime gives a process.
import { ConnectionClosedError, type Transport, type TransportDiagnostic } from "@codex-rpc/core";
import type { ProcessTransportOptions } from "@codex-rpc/core/process";
import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";

/** How a fake process ends: an exit code, or a signal (reported the way the runtime reports it). */
export type FakeExit = { readonly code: number } | { readonly signal: "SIGTERM" | "SIGKILL" };

/** A fake process's stdout and stderr as web streams (as Deno and Bun give them), and what feeds and ends them. */
export interface FakeOutput {
  readonly stdoutStream: ReadableStream<Uint8Array>;
  readonly stderrStream: ReadableStream<Uint8Array>;
  /** Writes to stdout / stderr; `end…` closes them. */
  stdout(text: string): void;
  stderr(text: string): void;
  endStdout(): void;
  endStderr(): void;
  /** Whether the transport cancelled its stderr read. */
  stderrCancelled(): boolean;
}

function fakeOutput(): FakeOutput {
  const encoder = new TextEncoder();
  let stdoutController!: ReadableStreamDefaultController<Uint8Array>;
  let stderrController!: ReadableStreamDefaultController<Uint8Array>;
  let stderrCancelled = false;
  return {
    stdoutStream: new ReadableStream<Uint8Array>({ start: (controller) => void (stdoutController = controller) }),
    stderrStream: new ReadableStream<Uint8Array>({
      start: (controller) => void (stderrController = controller),
      cancel: () => void (stderrCancelled = true),
    }),
    stdout: (text) => stdoutController.enqueue(encoder.encode(text)),
    stderr: (text) => stderrController.enqueue(encoder.encode(text)),
    endStdout: () => stdoutController.close(),
    endStderr: () => stderrController.close(),
    stderrCancelled: () => stderrCancelled,
  };
}

export interface FakeServerProcess {
  /** What the transport wrote to stdin, one entry per completed write. */
  readonly written: string[];
  /** The signals the transport sent, in order. */
  readonly signals: string[];
  readonly output: FakeOutput;
  /** The process ends (streams are ended separately, as they are in reality). */
  exit(how: FakeExit): void;
}

/** The runtime-neutral half of a fake process; the runtime's child-process shape is built around it. */
export interface FakeProcessCore extends FakeServerProcess {
  /** For the runtime's `kill()`: records the signal and runs the behaviour's hook. */
  kill(signal: string): void;
  /** For the runtime's end of stdin: runs the behaviour's hook. */
  endStdin(): void;
}

/** A fake process behaving as told; `exit` reports an ending the way the runtime does. */
export function fakeProcessCore(behaviour: FakeProcessBehaviour, exit: (how: FakeExit) => void): FakeProcessCore {
  const fake: FakeProcessCore = {
    written: [],
    signals: [],
    output: fakeOutput(),
    exit,
    kill: (signal) => {
      fake.signals.push(signal);
      behaviour.onSignal?.(fake, signal);
    },
    endStdin: () => behaviour.onStdinEnd?.(fake),
  };
  return fake;
}

export interface FakeProcessBehaviour {
  /** The transport ended stdin. */
  onStdinEnd?(fake: FakeServerProcess): void;
  onSignal?(fake: FakeServerProcess, signal: string): void;
  /** Every write to stdin fails with this (a broken pipe). */
  failWrites?: Error;
}

export interface ProcessTransportUnderTest extends Transport {
  stderrTail(): string[];
}

export interface ProcessTransportHarness {
  /** The transport, as the describe block names it. */
  readonly name: string;
  /** A fake process behaving as told, wrapped in the transport under test. */
  start(behaviour?: FakeProcessBehaviour, options?: ProcessTransportOptions): { transport: ProcessTransportUnderTest; fake: FakeServerProcess };
  /** The error a write to the runtime's stdin fails with when the process is gone. */
  readonly brokenPipe: Error;
}

/** A process that ends the way a real one does: streams closed, then the exit. */
function exitFully(fake: FakeServerProcess, how: FakeExit): void {
  fake.output.endStdout();
  fake.output.endStderr();
  fake.exit(how);
}

/** Declares the lifecycle cases for one process transport. */
export function describeProcessTransportLifecycle(harness: ProcessTransportHarness): void {
  describe(harness.name, () => {
    it("frames stdout into messages, writes each send as a line, and turns stderr into cleaned diagnostics", async () => {
      const { transport, fake } = harness.start();
      const diagnostics = firstValueFrom(transport.diagnostics$.pipe(toArray()));
      const messages = firstValueFrom(transport.messages$.pipe(toArray()));
      await transport.send({ id: 1, method: "initialize", params: {} });
      expect(fake.written).toEqual(['{"id":1,"method":"initialize","params":{}}\n']);
      fake.output.stdout('{"id":1,"result":{}}\n{"method":"no');
      fake.output.stdout('tice"}\n');
      fake.output.stderr("\u001b[31mERROR\u001b[0m token=abc123secret\n");
      exitFully(fake, { code: 0 });
      expect(await messages).toEqual([{ id: 1, result: {} }, { method: "notice" }]);
      expect((await diagnostics).filter((d: TransportDiagnostic) => d.kind === "stderr").map((d) => d.message)).toEqual(["ERROR token=[REDACTED]"]);
      expect(transport.stderrTail()).toEqual(["ERROR token=[REDACTED]"]);
    });

    it("a write that fails on a broken pipe before the exit is seen rejects with the typed close, not the pipe error", async () => {
      const { transport, fake } = harness.start({ failWrites: harness.brokenPipe });
      const sent = transport.send({ id: 1, method: "initialize" }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 20));
      fake.output.stderr("Error: CODEX_HOME points to a path that does not exist\n");
      exitFully(fake, { code: 1 });
      const error = await sent;
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect((error as ConnectionClosedError).close).toMatchObject({
        reason: "exit",
        exitCode: 1,
        signal: null,
        stderrTail: ["Error: CODEX_HOME points to a path that does not exist"],
      });
    });

    it("reports a signal's death as exit code null and the signal", async () => {
      const { transport, fake } = harness.start();
      exitFully(fake, { signal: "SIGKILL" });
      expect(await transport.closed).toMatchObject({ reason: "exit", exitCode: null, signal: "SIGKILL" });
    });

    it("closes soon after the exit even when a grandchild keeps stderr open, and stops reading it", async () => {
      const { transport, fake } = harness.start({}, { eofGraceMs: 100 });
      fake.output.stderr("last words\n");
      fake.output.endStdout();
      const exitedAt = performance.now();
      fake.exit({ code: 2 }); // stderr never ends
      const info = await transport.closed;
      expect(performance.now() - exitedAt).toBeLessThan(1000);
      expect(info).toMatchObject({ reason: "exit", exitCode: 2, stderrTail: ["last words"] });
      expect(fake.output.stderrCancelled()).toBe(true);
    });

    it("close() ends stdin and sends no signal when the server exits by itself", async () => {
      const { transport, fake } = harness.start({ onStdinEnd: (self) => exitFully(self, { code: 0 }) });
      await transport.close();
      expect(fake.signals).toEqual([]);
      expect(await transport.closed).toMatchObject({ reason: "closed", exitCode: 0 });
      await expect(transport.send({ method: "initialized" })).rejects.toBeInstanceOf(ConnectionClosedError);
    });

    it("close() escalates to SIGTERM, then SIGKILL, for a server that ignores both stdin EOF and SIGTERM", async () => {
      const { transport, fake } = harness.start(
        { onSignal: (self, signal) => signal === "SIGKILL" && exitFully(self, { signal: "SIGKILL" }) },
        { stdinEndTimeoutMs: 30, sigtermTimeoutMs: 30 },
      );
      await transport.close();
      expect(fake.signals).toEqual(["SIGTERM", "SIGKILL"]);
      expect(await transport.closed).toMatchObject({ reason: "closed", exitCode: null, signal: "SIGKILL" });
    });
  });
}
