import type { Observable } from "rxjs";
import type { DefaultProtocolTypes, ProtocolTypesShape, ResultIn } from "../rpc/protocol-types.js";
import { MessageInbox } from "../transport/message-inbox.js";
import type { CommandExit, CommandHost, CommandOutputChunk } from "./command-run.js";
import { toAsyncIterable } from "./async-iterable.js";

export type { CommandExit, CommandHost, CommandOutputChunk } from "./command-run.js";

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
  /** Settles once `command/exec` and every request called before now have gone out. */
  #queue: Promise<unknown>;

  constructor(processId: string, host: CommandHost) {
    this.processId = processId;
    this.#host = host;
    const inbox = new MessageInbox<CommandOutputChunk>();
    this.output$ = inbox.messages$;
    // The running (output decoded from base64, the exit) is in command-run, loaded on demand before
    // `command/exec` goes out (runCommand sends it at once); a failed load fails `result` and `exit`
    // with its error. One that stalls fails them as `command/exec` would fail (its timeout, the
    // signal of `exec`, the client's close), and `command/exec` then never goes out.
    let running!: Promise<{ result: unknown; exit: CommandExit }>;
    const sent = host.load("command/exec", import("./command-run.js")).then(
      (module) => {
        running = module.runCommand(host, inbox);
      },
      (error: unknown) => {
        inbox.complete();
        throw error;
      },
    );
    const run = sent.then(() => running);
    // stdin, resize and terminate go out after `command/exec`, in the order they were called.
    this.#queue = sent.catch(() => undefined);
    this.result = run.then((ran) => ran.result as ResultIn<T["clientRequests"], "command/exec">);
    this.exit = run.then((ran) => ran.exit);
    // Nobody has to await them: a failure is still thrown to whoever does.
    this.result.catch(() => undefined);
    this.exit.catch(() => undefined);
  }

  /** Writes to the command's stdin (`command/exec/write`); needs `streamStdin: true` (or `tty: true`). */
  write(data: string | Uint8Array): Promise<void> {
    return this.#send("command/exec/write", async () => ({ processId: this.processId, deltaBase64: await this.#base64Of(data) }));
  }

  /** Closes the command's stdin, after writing `data` if given. */
  end(data?: string | Uint8Array): Promise<void> {
    return this.#send("command/exec/write", async () => ({
      processId: this.processId,
      closeStdin: true,
      ...(data === undefined ? {} : { deltaBase64: await this.#base64Of(data) }),
    }));
  }

  /** Resizes the PTY of a `tty: true` command (`command/exec/resize`). */
  resize(cols: number, rows: number): Promise<void> {
    return this.#send("command/exec/resize", () => ({ processId: this.processId, size: { cols, rows } }));
  }

  /** Ends the command (`command/exec/terminate`); `exit` then resolves (codex 0.169.0 reports exit code 137). */
  terminate(): Promise<void> {
    return this.#send("command/exec/terminate", () => ({ processId: this.processId }));
  }

  /** Sends a request about the process once those called before it went out; resolves with its answer. */
  #send(method: string, params: () => object | Promise<object>): Promise<void> {
    let answered!: Promise<unknown>;
    const sent = this.#queue.then(async () => {
      answered = this.#host.request(method, await params());
    });
    this.#queue = sent.catch(() => undefined);
    return sent.then(() => answered).then(() => undefined);
  }

  /** Text (as UTF-8) or bytes as base64, the encoder loaded on demand (within `command/exec/write`'s timeout). */
  async #base64Of(data: string | Uint8Array): Promise<string> {
    const { encodeBase64 } = await this.#host.load("command/exec/write", import("../util/base64.js"));
    return encodeBase64(typeof data === "string" ? new TextEncoder().encode(data) : data);
  }

  /** `for await (const chunk of command)`: the output until the command ends; `break` stops reading, not the command. */
  [Symbol.asyncIterator](): AsyncIterator<CommandOutputChunk> {
    return toAsyncIterable(this.output$)[Symbol.asyncIterator]();
  }
}
