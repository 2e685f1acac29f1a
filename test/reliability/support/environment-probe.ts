// Runs under Node (imported), or under the real Deno or Bun (as a script): starts a stand-in
// "codex" through the adapter with `env: { CODEX_RPC_PASSED: "yes" }` and prints the names of the
// variables that stand-in received (it reports them as its first message).
//
// Usage: <runtime …> environment-probe.ts <deno|bun> <stand-in path>
import { firstValueFrom } from "rxjs";
import type { JsonRpcMessage, Transport } from "@codex-rpc/core";

interface AdapterPackage {
  spawnCodexAppServer(options: { codexPath: string; env: Record<string, string> }): Promise<Transport>;
}

const ADAPTERS = {
  deno: () => import("@codex-rpc/deno"),
  bun: () => import("@codex-rpc/bun"),
} satisfies Record<string, () => Promise<AdapterPackage>>;

/** The variable names the stand-in at `standIn` was started with, through `adapter`. */
export async function environmentSeenBy(adapter: AdapterPackage, standIn: string): Promise<string[]> {
  const transport = await adapter.spawnCodexAppServer({ codexPath: standIn, env: { CODEX_RPC_PASSED: "yes" } });
  try {
    const message = (await firstValueFrom(transport.messages$)) as JsonRpcMessage & { params: { names: string[] } };
    return message.params.names.sort();
  } finally {
    await transport.close();
  }
}

declare const Deno: { readonly args: readonly string[] } | undefined;
const args = typeof Deno === "undefined" ? process.argv.slice(2) : Deno.args;
if (args[0] === "deno" || args[0] === "bun") {
  const names = await environmentSeenBy(await ADAPTERS[args[0]](), args[1]!);
  console.log(JSON.stringify({ names }));
}
