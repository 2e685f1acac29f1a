import type { ThreadReadResponse } from "@codex-rpc/protocol";
import type { DefaultProtocolTypes, ProtocolTypesShape, ResultIn, ThreadInfoOf, UserInputOf } from "../rpc/protocol-types.js";
import type { SessionHost } from "./session-host.js";
import { CodexTurn, type TurnOptions } from "./codex-turn.js";
import type { OutputOf, OutputSchema } from "./structured-output.js";
import { userInputOf } from "./turn-steer.js";

/** A conversation on the server. Many threads (and their turns) share one connection. */
export class CodexThread<T extends ProtocolTypesShape = DefaultProtocolTypes> {
  constructor(
    private readonly host: SessionHost,
    /** The thread as the server described it when it was started or resumed. */
    readonly info: ThreadInfoOf<T>,
  ) {}

  get id(): string {
    return (this.info as { id: string }).id;
  }

  /**
   * Starts a turn with this input (a string is one text input) and returns it at once. While
   * another turn this client started on the thread runs, it waits its turn (`whenBusy`). With
   * `outputSchema`, the completed turn's `output` is the final message parsed and typed by it.
   */
  run<S extends OutputSchema | undefined = undefined>(input: string | readonly UserInputOf<T>[], options?: TurnOptions<T, S>): CodexTurn<T, OutputOf<S>> {
    return new CodexTurn<T, OutputOf<S>>(this.host, this.id, userInputOf(input) as never, options);
  }

  /** The thread as the server has it now, with its turns when asked. */
  read(includeTurns = false): Promise<ResultIn<T["clientRequests"], "thread/read">> {
    return this.host.request("thread/read", { threadId: this.id, includeTurns }) as Promise<ResultIn<T["clientRequests"], "thread/read"> & ThreadReadResponse>;
  }
}
