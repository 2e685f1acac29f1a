import type { ThreadReadResponse } from "@codex-rpc/protocol";
import type { DefaultProtocolTypes, ProtocolTypesShape, ResultIn, ThreadInfoOf, UserInputOf } from "../rpc/protocol-types.js";
import type { SessionHost } from "./session-host.js";
import { CodexTurn, type TurnOptions } from "./codex-turn.js";

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

  /** Starts a turn with this input (a string is one text input) and returns it at once. */
  run(input: string | readonly UserInputOf<T>[], options?: TurnOptions<T>): CodexTurn<T> {
    const items: unknown[] = typeof input === "string" ? [{ type: "text", text: input }] : [...input];
    return new CodexTurn<T>(this.host, this.id, items as never, options);
  }

  /** The thread as the server has it now, with its turns when asked. */
  read(includeTurns = false): Promise<ResultIn<T["clientRequests"], "thread/read">> {
    return this.host.request("thread/read", { threadId: this.id, includeTurns }) as Promise<ResultIn<T["clientRequests"], "thread/read"> & ThreadReadResponse>;
  }
}
