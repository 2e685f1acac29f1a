// The program every consumer runs: one real codex turn against the testing kit's mock model, with
// the transport of the runtime it runs on; it prints one JSON line. `typed` adds the annotations a
// TypeScript consumer writes (`const text$: Observable<string> = turn.text$` must type-check
// against the consumer's own rxjs).

export type Transport = "stdio" | "deno" | "bun";

/** `prefix` is `""` for bare names from node_modules, `"npm:"` for Deno's npm: specifiers. */
export function turnScript(options: { transport: Transport; typed: boolean; prefix?: string; versions?: Record<string, string> }): string {
  const spec = (name: string) => `${options.prefix ?? ""}${name}${options.versions?.[name] ? `@${options.versions[name]}` : ""}`;
  const annotation = (type: string) => (options.typed ? `: ${type}` : "");
  return `// A consumer of the packed @codex-rpc packages (written by test/packed/turn-script.ts).
import { CodexClient } from ${JSON.stringify(spec("@codex-rpc/core"))};
import { connectCodex } from ${JSON.stringify(spec(`@codex-rpc/${options.transport}`))};
import { MockResponsesProvider, createCodexHome, reply } from ${JSON.stringify(spec("@codex-rpc/testing"))};
import { Observable } from ${JSON.stringify(spec("rxjs"))};

const provider = await MockResponsesProvider.start({ script: [reply.text("Packed, installed and answering.", { chunks: 4 })] });
const home = await createCodexHome({ provider });
try {
  const client${annotation("CodexClient")} = await connectCodex({ env: home.env, approvals: "decline" });
  try {
    const thread = await client.startThread();
    const turn = thread.run("Say something.");
    const text$${annotation("Observable<string>")} = turn.text$;
    let streamed = "";
    text$.subscribe((delta) => {
      streamed += delta;
    });
    const done = await turn.completed;
    console.log(JSON.stringify({ finalText: done.finalText, streamed, instanceofObservable: text$ instanceof Observable }));
  } finally {
    await client.close();
  }
} finally {
  await home.cleanup();
  await provider.close();
}
`;
}
