// A command of `client.exec` at work: its output decoded from base64 as it streams, and its exit.
// Loaded on demand (import()) by the first `client.exec`, before `command/exec` goes out.
import type { Observable, Subscription } from "rxjs";
import { ProtocolError, RequestAbortedError } from "../errors/errors.js";
import type { ConnectionDiagnostic } from "../rpc/json-rpc-connection.js";
import type { MessageInbox } from "../transport/message-inbox.js";
import { decodeBase64 } from "../util/base64.js";
import { excerptOf } from "../util/describe-value.js";
import { isRecord } from "../util/is-record.js";

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
  /** `command/exec`'s params, `processId` included. */
  readonly params: { readonly processId: string };
  /** Aborting it terminates the command (`command/exec/terminate`). */
  readonly signal: AbortSignal | undefined;
  /** The client's typed notifications of one method (every process's: filtered here by processId). */
  notifications(method: string): Observable<unknown>;
  request(method: string, params: unknown): Promise<unknown>;
  /** Waits for a module loaded on demand as request `method` would wait (SessionHost.load, with the signal of `exec`). */
  load<M>(method: string, load: Promise<M>): Promise<M>;
  /** Reports on the client's diagnostics: an output message that cannot be decoded. */
  report(diagnostic: ConnectionDiagnostic): void;
}

/**
 * Listens for the command's output, then sends `command/exec`; resolves with codex's reply and the
 * exit once it answered (after the last output chunk), rejects with its error. The output goes to
 * `inbox`, which completes either way.
 */
export async function runCommand(host: CommandHost, inbox: MessageInbox<CommandOutputChunk>): Promise<{ result: unknown; exit: CommandExit }> {
  // ignoreBOM: output that starts with a byte order mark keeps it (it is the command's output).
  const decoders = { stdout: new TextDecoder("utf-8", { ignoreBOM: true }), stderr: new TextDecoder("utf-8", { ignoreBOM: true }) };
  const text = { stdout: [] as string[], stderr: [] as string[] };
  const { params, signal } = host;
  const subscription: Subscription = host.notifications("command/exec/outputDelta").subscribe((delta) => {
    if (!isRecord(delta) || delta.processId !== params.processId) return;
    const chunk = decodeChunk(delta, decoders);
    if (typeof chunk === "string") {
      // Whatever arrives is delivered or reported: this output is lost, and the user should know.
      host.report({ kind: "malformed-message", message: `command/exec/outputDelta: ${chunk}; the chunk is dropped`, excerpt: excerptOf(delta) });
      return;
    }
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
  let result: unknown;
  try {
    if (signal?.aborted) throw new RequestAbortedError("command/exec", undefined, signal.reason);
    const terminate = () => void host.request("command/exec/terminate", { processId: params.processId }).catch(() => undefined);
    signal?.addEventListener("abort", terminate, { once: true });
    // codex answers after the last output chunk.
    result = await host.request("command/exec", params).finally(() => signal?.removeEventListener("abort", terminate));
  } finally {
    ended();
  }
  if (!isRecord(result) || typeof result.exitCode !== "number") throw new ProtocolError("command/exec", "the result has no numeric `exitCode`");
  const reply = result as { exitCode: number; stdout?: unknown; stderr?: unknown };
  const exit = {
    exitCode: reply.exitCode,
    // Streamed output is not repeated in the reply; what codex buffered anyway comes after it.
    stdout: text.stdout.join("") + (typeof reply.stdout === "string" ? reply.stdout : ""),
    stderr: text.stderr.join("") + (typeof reply.stderr === "string" ? reply.stderr : ""),
  };
  return { result, exit };
}

/** The chunk, or why it cannot be one. */
function decodeChunk(delta: unknown, decoders: Record<"stdout" | "stderr", TextDecoder>): CommandOutputChunk | string {
  if (!isRecord(delta) || typeof delta.deltaBase64 !== "string") return "no `deltaBase64` string";
  const stream = delta.stream === "stderr" ? "stderr" : "stdout";
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64(delta.deltaBase64);
  } catch {
    return "`deltaBase64` is not base64";
  }
  return { stream, text: decoders[stream].decode(bytes, { stream: true }), bytes, capReached: delta.capReached === true };
}
