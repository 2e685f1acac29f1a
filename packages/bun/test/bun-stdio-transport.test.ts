// BunStdioTransport's process lifecycle against a fake Bun Subprocess (a FileSink stdin, web-stream
// stdout/stderr, `exited` with `exitCode`/`signalCode`, as Bun gives them), on Node: the cases every
// process transport passes (test/support/process-transport-cases.ts). The real thing runs in
// bun-app-server.runtime.test.ts.
import { describeProcessTransportLifecycle, fakeProcessCore } from "@codex-rpc/test-support/process-transport-cases.js";
import { BunStdioTransport, type BunSubprocess } from "../src/bun-stdio-transport.js";

describeProcessTransportLifecycle({
  name: "BunStdioTransport (fake Bun Subprocess)",
  start: (behaviour = {}, options) => {
    let resolveExited!: (code: number) => void;
    const state = { exitCode: null as number | null, signalCode: null as string | null };
    // Bun sets `exitCode` (null after a signal) and `signalCode`, then resolves `exited`.
    const fake = fakeProcessCore(behaviour, (how) => {
      state.exitCode = "signal" in how ? null : how.code;
      state.signalCode = "signal" in how ? how.signal : null;
      resolveExited(state.exitCode ?? 137);
    });
    // A FileSink buffers writes; a broken pipe shows when the buffer is flushed.
    let buffered = "";
    const child: BunSubprocess = {
      pid: 4343,
      stdin: {
        write: (chunk) => {
          buffered += new TextDecoder().decode(chunk);
          return chunk.byteLength;
        },
        flush: () => {
          if (behaviour.failWrites) return Promise.reject(behaviour.failWrites);
          fake.written.push(buffered);
          const flushed = buffered.length;
          buffered = "";
          return flushed;
        },
        end: () => {
          fake.endStdin();
          return 0;
        },
      },
      stdout: fake.output.stdoutStream,
      stderr: fake.output.stderrStream,
      exited: new Promise((resolve) => (resolveExited = resolve)),
      get exitCode() {
        return state.exitCode;
      },
      get signalCode() {
        return state.signalCode;
      },
      kill: (signal = "SIGTERM") => fake.kill(signal),
    };
    return { transport: new BunStdioTransport(child, options), fake };
  },
  brokenPipe: Object.assign(new Error("EPIPE: broken pipe, write"), { code: "EPIPE" }),
});
