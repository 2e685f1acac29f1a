import type { RelayConnection } from "./relay-multiplexer.js";

/**
 * What the multiplexers of one relay with isolation "process" share. Their sessions are on one
 * app-server (`url`, `socketPath`) or one `CODEX_HOME` (`spawn`), so:
 * - who owns which thread: a page must not resume, read or list, through its own session, a thread
 *   another page has open (a shared app-server shares its loaded threads);
 * - connection numbers: page-chosen ids go upstream as `r<number>.<id>`, and codex keeps some of
 *   them in one namespace for all its connections (measured on 0.169.0: `fuzzyFileSearch`'s
 *   `cancellationToken` of one connection cancels another's search).
 * A multiplexer on its own has a group of its own.
 */
export class MultiplexerGroup {
  /** Each thread's owner, among the connections of every multiplexer of the group. */
  readonly threadOwners = new Map<string, RelayConnection>();
  #nextConnection = 1;

  /** A connection number no other connection of the group has. */
  nextConnectionNumber(): number {
    return this.#nextConnection++;
  }
}
