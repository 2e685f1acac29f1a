// DenoStdioTransport's process lifecycle against a fake Deno.ChildProcess (web streams and a
// status promise, as Deno gives them), on Node: the orderings a real server produces only
// sometimes (a write failing before the exit is seen, a grandchild holding stderr, a server
// ignoring SIGTERM). The real thing runs in deno-app-server.test.ts.
import { ConnectionClosedError, type TransportDiagnostic } from "@codex-rpc/core";
import { firstValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { DenoStdioTransport, type DenoChildProcess } from "../src/deno-stdio-transport.js";

interface FakeDenoProcess {
  readonly child: DenoChildProcess;
  readonly written: string[];
  readonly signals: string[];
  /** Writes to stdout / stderr; `end…` closes them. */
  stdout(text: string): void;
  stderr(text: string): void;
  endStdout(): void;
  endStderr(): void;
  /** The process ends: its status resolves (streams are ended separately, as they are in reality). */
  exit(status: { code: number; signal: string | null }): void;
  /** Whether the transport cancelled its stderr read. */
  readonly stderrCancelled: boolean;
}

function fakeDenoProcess(behaviour: { onStdinClose?(fake: FakeDenoProcess): void; onSignal?(fake: FakeDenoProcess, signal: string): void; failWrites?: Error } = {}): FakeDenoProcess {
  const encoder = new TextEncoder();
  let stdoutController!: ReadableStreamDefaultController<Uint8Array>;
  let stderrController!: ReadableStreamDefaultController<Uint8Array>;
  let resolveStatus!: (status: { code: number; signal: string | null }) => void;
  let stderrCancelled = false;
  const written: string[] = [];
  const signals: string[] = [];
  const fake: FakeDenoProcess = {
    child: {
      pid: 4242,
      stdin: new WritableStream<Uint8Array>({
        write: (chunk) => {
          if (behaviour.failWrites) throw behaviour.failWrites;
          written.push(new TextDecoder().decode(chunk));
        },
        close: () => behaviour.onStdinClose?.(fake),
      }),
      stdout: new ReadableStream<Uint8Array>({ start: (controller) => void (stdoutController = controller) }),
      stderr: new ReadableStream<Uint8Array>({
        start: (controller) => void (stderrController = controller),
        cancel: () => void (stderrCancelled = true),
      }),
      status: new Promise((resolve) => (resolveStatus = resolve)),
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
    exit: (status) => resolveStatus(status),
    get stderrCancelled() {
      return stderrCancelled;
    },
  };
  return fake;
}

/** A process that ends the way a real one does: streams closed, then the status. */
function exitFully(fake: FakeDenoProcess, status: { code: number; signal: string | null }): void {
  fake.endStdout();
  fake.endStderr();
  fake.exit(status);
}

describe("DenoStdioTransport (fake Deno.ChildProcess)", () => {
  it("frames stdout into messages, writes sends as lines, and turns stderr into cleaned diagnostics", async () => {
    const fake = fakeDenoProcess();
    const transport = new DenoStdioTransport(fake.child);
    const diagnostics = firstValueFrom(transport.diagnostics.pipe(toArray()));
    const messages = firstValueFrom(transport.messages.pipe(toArray()));
    await transport.send({ id: 1, method: "initialize", params: {} });
    expect(fake.written).toEqual(['{"id":1,"method":"initialize","params":{}}\n']);
    fake.stdout('{"id":1,"result":{}}\n{"method":"no');
    fake.stdout('tice"}\n');
    fake.stderr("\u001b[31mERROR\u001b[0m token=abc123secret\n");
    exitFully(fake, { code: 0, signal: null });
    expect(await messages).toEqual([{ id: 1, result: {} }, { method: "notice" }]);
    expect((await diagnostics).filter((d: TransportDiagnostic) => d.kind === "stderr").map((d) => d.message)).toEqual(["ERROR token=[REDACTED]"]);
    expect(transport.stderrTail()).toEqual(["ERROR token=[REDACTED]"]);
  });

  it("a write that fails on a broken pipe before the exit is seen rejects with the typed close, not EPIPE", async () => {
    const brokenPipe = Object.assign(new Error("Broken pipe (os error 32)"), { name: "BrokenPipe", code: "EPIPE" });
    const fake = fakeDenoProcess({ failWrites: brokenPipe });
    const transport = new DenoStdioTransport(fake.child);
    const sent = transport.send({ id: 1, method: "initialize" }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    fake.stderr("Error: CODEX_HOME points to a path that does not exist\n");
    exitFully(fake, { code: 1, signal: null });
    const error = await sent;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as ConnectionClosedError).close).toMatchObject({ reason: "exit", exitCode: 1, signal: null, stderrTail: ["Error: CODEX_HOME points to a path that does not exist"] });
  });

  it("reports a signal's death as exit code null and the signal, not Deno's 128 + n", async () => {
    const fake = fakeDenoProcess();
    const transport = new DenoStdioTransport(fake.child);
    exitFully(fake, { code: 137, signal: "SIGKILL" });
    expect(await transport.closed).toMatchObject({ reason: "exit", exitCode: null, signal: "SIGKILL" });
  });

  it("closes soon after the exit even when a grandchild keeps stderr open, and stops reading it", async () => {
    const fake = fakeDenoProcess();
    const transport = new DenoStdioTransport(fake.child, { eofGraceMs: 100 });
    fake.stderr("last words\n");
    fake.endStdout();
    const exitedAt = performance.now();
    fake.exit({ code: 2, signal: null }); // stderr never ends
    const info = await transport.closed;
    expect(performance.now() - exitedAt).toBeLessThan(1000);
    expect(info).toMatchObject({ reason: "exit", exitCode: 2, stderrTail: ["last words"] });
    expect(fake.stderrCancelled).toBe(true);
  });

  it("close() ends stdin and sends no signal when the server exits by itself", async () => {
    const fake = fakeDenoProcess({ onStdinClose: (self) => exitFully(self, { code: 0, signal: null }) });
    const transport = new DenoStdioTransport(fake.child);
    await transport.close();
    expect(fake.signals).toEqual([]);
    expect(await transport.closed).toMatchObject({ reason: "closed", exitCode: 0 });
    await expect(transport.send({ method: "initialized" })).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it("close() escalates to SIGTERM, then SIGKILL, for a server that ignores both stdin EOF and SIGTERM", async () => {
    const fake = fakeDenoProcess({ onSignal: (self, signal) => signal === "SIGKILL" && exitFully(self, { code: 137, signal: "SIGKILL" }) });
    const transport = new DenoStdioTransport(fake.child, { stdinEndTimeoutMs: 30, sigtermTimeoutMs: 30 });
    await transport.close();
    expect(fake.signals).toEqual(["SIGTERM", "SIGKILL"]);
    expect(await transport.closed).toMatchObject({ reason: "closed", exitCode: null, signal: "SIGKILL" });
  });
});
