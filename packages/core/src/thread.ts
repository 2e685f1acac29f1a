import type { Thread as ProtocolThread, ThreadReadResponse, UserInput } from "@codex-rpc/protocol";
import type { CodexClient } from "./codex-client.js";
import { Turn, type TurnOptions } from "./turn.js";

/** A conversation on the server. Many threads (and their turns) share one connection. */
export class Thread {
  constructor(
    private readonly client: CodexClient,
    /** The thread as the server described it when it was started or resumed. */
    readonly info: ProtocolThread,
  ) {}

  get id(): string {
    return this.info.id;
  }

  /** Starts a turn with this input (a string is one text input) and returns it at once. */
  run(input: string | readonly UserInput[], options?: TurnOptions): Turn {
    const items: UserInput[] = typeof input === "string" ? [{ type: "text", text: input }] : [...input];
    return new Turn(this.client, this.id, items, options);
  }

  /** The thread as the server has it now, with its turns when asked. */
  read(includeTurns = false): Promise<ThreadReadResponse> {
    return this.client.request("thread/read", { threadId: this.id, includeTurns });
  }
}
