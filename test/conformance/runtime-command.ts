// How to run a case script under each runtime: Node 20 is the one running vitest; the pinned node 22,
// deno and bun come from .runtimes (see test/support/runtimes.ts).
import { runtimeBinary, type RuntimeName } from "../support/runtimes.js";

export type ConformanceRuntime = "node20" | RuntimeName;

/** The binary for a runtime. @throws Error naming the install command when a pinned runtime is missing. */
export function conformanceRuntimeBinary(runtime: ConformanceRuntime): string {
  return runtime === "node20" ? process.execPath : runtimeBinary(runtime);
}

/** The arguments that run one ES module file under `runtime`. */
export function runtimeArguments(runtime: ConformanceRuntime, modulePath: string): string[] {
  if (runtime === "deno") {
    // The root package.json puts Deno in "manual" node_modules mode: bare `@codex-rpc/*` specifiers
    // resolve from /work/main/node_modules (the workspace links). --no-config would turn that off and
    // break them; --node-modules-dir=manual states it rather than relying on detection; --no-lock
    // keeps a deno.lock out of the repository; --allow-all because the script spawns, connects and signals.
    return ["run", "--allow-all", "--node-modules-dir=manual", "--no-lock", modulePath];
  }
  return [modulePath]; // node and bun run a file directly
}
