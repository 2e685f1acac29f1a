import type { ThreadReadResponse } from "@codex-rpc/protocol";
import type { CodexClient } from "./codex-client.js";
import type { DefaultProtocolTypes, ProtocolTypesShape, ResultIn, ThreadInfoOf, UserInputOf } from "./protocol-types.js";
import { Turn, type TurnOptions } from "./turn.js";

/** A conversation on the server. Many threads (and their turns) share one connection. */
export class Thread<T extends ProtocolTypesShape = DefaultProtocolTypes> {
  constructor(
    private readonly client: CodexClient<T>,
    /** The thread as the server described it when it was started or resumed. */
    readonly info: ThreadInfoOf<T>,
  ) {}

  get id(): string {
    return (this.info as { id: string }).id;
  }

  /** Starts a turn with this input (a string is one text input) and returns it at once. */
  run(input: string | readonly UserInputOf<T>[], options?: TurnOptions<T>): Turn<T> {
    const items: unknown[] = typeof input === "string" ? [{ type: "text", text: input }] : [...input];
    return new Turn<T>(this.client, this.id, items as never, options);
  }

  /** The thread as the server has it now, with its turns when asked. */
  read(includeTurns = false): Promise<ResultIn<T["clientRequests"], "thread/read">> {
    const request = this.client.request as (method: string, params: unknown) => Promise<unknown>;
    return request.call(this.client, "thread/read", { threadId: this.id, includeTurns }) as Promise<ResultIn<T["clientRequests"], "thread/read"> & ThreadReadResponse>;
  }
}
