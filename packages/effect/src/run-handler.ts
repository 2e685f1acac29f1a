// Runs a server-request handler or tool written as an Effect for core, which answers a rejection
// with the error's message (approvals, user input: -32603 "client handler for … failed: <message>";
// tools: success false, "Tool … failed: <message>"). An Effect fails with any value, and
// `Data.TaggedError`s often carry no message: the rejection then says the failure's `_tag`, never
// its fields (they may hold secrets), instead of an empty message or "[object Object]".
import { type Context, Effect } from "effect";

/** `effect` run with `context`, interrupted by `signal`; its failure rejects with an Error that says what failed. */
export function runHandler<R>(context: Context.Context<R>) {
  return <A>(effect: Effect.Effect<A, unknown, R>, signal: AbortSignal): Promise<A> =>
    Effect.runPromiseWith(context)(Effect.mapError(effect, describedFailure), { signal });
}

function describedFailure(failure: unknown): unknown {
  if (failure instanceof Error && failure.message !== "") return failure;
  const tag = typeof failure === "object" && failure !== null ? (failure as { _tag?: unknown })._tag : undefined;
  if (typeof tag === "string" && tag !== "") return new Error(tag, { cause: failure });
  if (typeof failure === "string" && failure !== "") return new Error(failure, { cause: failure });
  return new Error(
    `failed with ${failure instanceof Error ? `an ${failure.name} with no message` : `a value of type ${failure === null ? "null" : typeof failure}`}`,
    {
      cause: failure,
    },
  );
}
