// An ended turn read back with `thread/read` (the watchdog, and an interrupt codex refused): loaded
// on demand (import()) the first time a turn needs it, so a page whose turns complete normally does
// not carry it.
import type { Turn as ProtocolTurn } from "@codex-rpc/protocol";
import { describeThrown } from "../util/describe-value.js";
import type { SessionHost } from "./session-host.js";

/** Reads the thread: the turn, if it shows the turn ended. Never throws; `onProblem` hears a failed or malformed read. */
export async function readEndedTurn(
  host: SessionHost,
  threadId: string,
  turnId: string,
  onProblem: (problem: string) => void,
): Promise<ProtocolTurn | undefined> {
  let result: unknown;
  try {
    result = await host.request("thread/read", { threadId: threadId, includeTurns: true });
  } catch (error) {
    onProblem(`thread/read failed while checking whether the turn ended: ${describeThrown(error)}`);
    return undefined;
  }
  if (!Array.isArray((result as { thread?: { turns?: unknown } } | null)?.thread?.turns)) onProblem("the thread/read result has no `thread.turns` array");
  const turn = turnIn(result, turnId);
  return turn && turn.status !== "inProgress" ? turn : undefined;
}

/** The turn with this id in a `thread/read` result, if the result has the shape to tell. */
function turnIn(result: unknown, turnId: string): ProtocolTurn | undefined {
  const turns = (result as { thread?: { turns?: unknown } } | null | undefined)?.thread?.turns;
  if (!Array.isArray(turns)) return undefined;
  const turn = turns.find((candidate: unknown) => (candidate as { id?: unknown } | null)?.id === turnId) as ProtocolTurn | undefined;
  return turn && typeof turn.status === "string" ? turn : undefined;
}
