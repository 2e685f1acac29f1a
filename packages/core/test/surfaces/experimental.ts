// The experimental surface, passed at run time: experimental params need no cast.
import { CodexClient, type Transport } from "@codex-rpc/core";
import { protocol } from "@codex-rpc/protocol/experimental";

export async function experimental(transport: Transport): Promise<void> {
  const client = await CodexClient.connect(transport, { protocol });
  const thread = await client.startThread({ dynamicTools: [{ type: "function", name: "weather", description: "d", inputSchema: {} }] });
  void thread;
  // The helpers take the experimental surface's params.
  const command = client.exec(["ls"], { tty: true, size: { cols: 80, rows: 24 } });
  await command.resize(100, 40);
  // Methods only the experimental surface has are typed too.
  const other: "experimental" = protocol.flavor;
  void other;
}
