// The experimental surface, passed at run time: experimental params need no cast.
import { CodexClient, type Transport } from "@codex-rpc/core";
import { protocol } from "@codex-rpc/protocol/experimental";

export async function experimental(transport: Transport): Promise<void> {
  const client = await CodexClient.connect(transport, { protocol });
  const thread = await client.startThread({ dynamicTools: [{ type: "function", name: "weather", description: "d", inputSchema: {} }] });
  void thread;
  // Thread operations are typed by the experimental surface too.
  const fork = await thread.fork({ lastTurnId: "t1" });
  const done = await thread.review({ type: "commit", sha: "abc" }, { delivery: "inline" }).review;
  const review: string | null = done.review;
  void review;
  // @ts-expect-error a compaction's output is codex's own summary: no outputSchema to give.
  void thread.compact({ outputSchema: { type: "object" } });
  for await (const listed of client.threads({ limit: 1, archived: true })) void (listed.id satisfies string);
  for await (const turn of fork.turns({ sortDirection: "asc" })) void (turn.id satisfies string);
  for await (const entry of fork.items({ limit: 2 })) void (entry.turnId satisfies string);
  // The helpers take the experimental surface's params.
  const command = client.exec(["ls"], { tty: true, size: { cols: 80, rows: 24 } });
  await command.resize(100, 40);
  // Methods only the experimental surface has are typed too.
  const other: "experimental" = protocol.flavor;
  void other;
}
