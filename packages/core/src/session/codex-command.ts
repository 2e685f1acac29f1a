import type { Observable, Subscription } from "rxjs";
import type { DefaultProtocolTypes, ProtocolTypesShape, ResultIn } from "../rpc/protocol-types.js";
import { MessageInbox } from "../transport/message-inbox.js";
import { decodeBase64, encodeBase64 } from "../util/base64.js";
import { isRecord } from "../util/is-record.js";
import { toAsyncIterable } from "./async-iterable.js";

/** One chunk of a command's output, decoded. */
export interface CommandOutputChunk {
  /** `stdout` or `stderr` (a PTY, `tty: true`, multiplexes everything onto `stdout`). */
  readonly stream: "stdout" | "stderr";
  /** The chunk as UTF-8 text (a character split across chunks comes whole with the later one). */
  readonly text: string;
  /** The chunk's bytes as codex sent them. */
  readonly bytes: Uint8Array;
  /** `true` on the last chunk of a stream that `outputBytesCap` cut short. */
  readonly capReached: boolean;
}

/** How a command ended: the exit code, and everything it wrote, as text. */
export interface CommandExit {
  /** The exit code: codex reports 124 for its own timeout and 128 + n for signal n (137 after `terminate()`). */
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** What a CodexCommand needs of the client. */
export interface CommandHost {
  /** This command's `command/exec/outputDelta` params (already filtered by processId). */
  readonly output: Observable<unknown>;
  /** Sends `command/exec`; resolves with its reply, which codex sends after the last output chunk. */
  start(): Promise<unknown>;
  request(method: string, params: unknown): Promise<unknown>;
}

/**
 * A running `command/exec` (from `client.exec`): its output as it streams (`output$`, or
 * `for await (const chunk of command)`), `write` / `end` for its stdin (with `streamStdin: true`),
 * `resize` for a PTY (`tty: true`), `terminate`, and `exit`.
 */
export class CodexCommand<T extends ProtocolTypesShape = DefaultProtocolTypes> implements AsyncIterable<CommandOutputChunk> {
  /** The connection-scoped id codex knows the process by. */
  readonly processId: string;
  /**
   * The output, decoded, tagged stdout/stderr. Hot, but nothing is lost before the first
   * subscriber: what arrived until then is replayed to it. Completes when the command ends.
   */
  readonly output$: Observable<CommandOutputChunk>;
  /**
   * Resolves when the command has ended, with its exit code and its whole output as text; rejects
   * with the server's error when codex could not run it (an empty command, a sandbox that cannot
   * start, a processId in use) or with ConnectionClosedError.
   */
  readonly exit: Promise<CommandExit>;
  /** codex's reply to `command/exec` as it came (its `stdout`/`stderr` are empty: the output streamed). */
  readonly result: Promise<ResultIn<T["clientRequests"], "command/exec">>;

  readonly #host: CommandHost;

  constructor(processId: string, host: CommandHost) {
    this.processId = processId;
    this.#host = host;
    const inbox = new MessageInbox<CommandOutputChunk>();
    this.output$ = inbox.messages$;
    const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
    const text = { stdout: [] as string[], stderr: [] as string[] };
    const subscription: Subscription = host.output.subscribe((delta) => {
      const chunk = decodeChunk(delta, decoders);
      if (!chunk) return;
      text[chunk.stream].push(chunk.text);
      inbox.deliver(chunk);
    });
    const ended = () => {
      subscription.unsubscribe();
      for (const stream of ["stdout", "stderr"] as const) {
        const rest = decoders[stream].decode();
        if (rest) text[stream].push(rest);
      }
      inbox.complete();
    };
    this.result = host.start().then(
      (result) => {
        ended();
        return result as ResultIn<T["clientRequests"], "command/exec">;
      },
      (error: unknown) => {
        ended();
        throw error;
      },
    );
    this.exit = this.result.then((result) => {
      const reply = result as { exitCode?: unknown; stdout?: unknown; stderr?: unknown };
      return {
        exitCode: typeof reply.exitCode === "number" ? reply.exitCode : -1,
        // Streamed output is not repeated in the reply; what codex buffered anyway comes after it.
        stdout: text.stdout.join("") + (typeof reply.stdout === "string" ? reply.stdout : ""),
        stderr: text.stderr.join("") + (typeof reply.stderr === "string" ? reply.stderr : ""),
      };
    });
    // Nobody has to await them: a failure is still thrown to whoever does.
    this.result.catch(() => undefined);
    this.exit.catch(() => undefined);
  }

  /** Writes to the command's stdin (`command/exec/write`); needs `streamStdin: true` (or `tty: true`). */
  async write(data: string | Uint8Array): Promise<void> {
    await this.#host.request("command/exec/write", { processId: this.processId, deltaBase64: encodeBase64(toBytes(data)) });
  }

  /** Closes the command's stdin, after writing `data` if given. */
  async end(data?: string | Uint8Array): Promise<void> {
    await this.#host.request("command/exec/write", {
      processId: this.processId,
      closeStdin: true,
      ...(data === undefined ? {} : { deltaBase64: encodeBase64(toBytes(data)) }),
    });
  }

  /** Resizes the PTY of a `tty: true` command (`command/exec/resize`). */
  async resize(cols: number, rows: number): Promise<void> {
    await this.#host.request("command/exec/resize", { processId: this.processId, size: { cols, rows } });
  }

  /** Ends the command (`command/exec/terminate`); `exit` then resolves (codex 0.169.0 reports exit code 137). */
  async terminate(): Promise<void> {
    await this.#host.request("command/exec/terminate", { processId: this.processId });
  }

  /** `for await (const chunk of command)`: the output until the command ends; `break` stops reading, not the command. */
  [Symbol.asyncIterator](): AsyncIterator<CommandOutputChunk> {
    return toAsyncIterable(this.output$)[Symbol.asyncIterator]();
  }
}

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data;
}

function decodeChunk(delta: unknown, decoders: Record<"stdout" | "stderr", TextDecoder>): CommandOutputChunk | undefined {
  if (!isRecord(delta) || typeof delta.deltaBase64 !== "string") return undefined;
  const stream = delta.stream === "stderr" ? "stderr" : "stdout";
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64(delta.deltaBase64);
  } catch {
    return undefined;
  }
  return { stream, text: decoders[stream].decode(bytes, { stream: true }), bytes, capReached: delta.capReached === true };
}
