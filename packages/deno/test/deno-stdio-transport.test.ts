// DenoStdioTransport's process lifecycle against a fake Deno.ChildProcess (web streams and a
// status promise, as Deno gives them), on Node: the cases every process transport passes
// (test/support/process-transport-cases.ts). The real thing runs in deno-app-server.runtime.test.ts.
import { describeProcessTransportLifecycle, fakeProcessCore } from "@codex-rpc/test-support/process-transport-cases.js";
import { DenoStdioTransport, type DenoChildProcess } from "../src/deno-stdio-transport.js";

/** Deno reports a death by signal n as code 128 + n, with the signal's name beside it. */
const SIGNAL_NUMBERS = { SIGTERM: 15, SIGKILL: 9 } as const;

describeProcessTransportLifecycle({
  name: "DenoStdioTransport (fake Deno.ChildProcess)",
  start: (behaviour = {}, options) => {
    let resolveStatus!: (status: { code: number; signal: string | null }) => void;
    const fake = fakeProcessCore(behaviour, (how) =>
      resolveStatus("signal" in how ? { code: 128 + SIGNAL_NUMBERS[how.signal], signal: how.signal } : { code: how.code, signal: null }),
    );
    const child: DenoChildProcess = {
      pid: 4242,
      stdin: new WritableStream<Uint8Array>({
        write: (chunk) => {
          if (behaviour.failWrites) throw behaviour.failWrites;
          fake.written.push(new TextDecoder().decode(chunk));
        },
        close: () => fake.endStdin(),
      }),
      stdout: fake.output.stdoutStream,
      stderr: fake.output.stderrStream,
      status: new Promise((resolve) => (resolveStatus = resolve)),
      kill: (signal = "SIGTERM") => fake.kill(signal),
    };
    return { transport: new DenoStdioTransport(child, options), fake };
  },
  brokenPipe: Object.assign(new Error("Broken pipe (os error 32)"), { name: "BrokenPipe", code: "EPIPE" }),
});
