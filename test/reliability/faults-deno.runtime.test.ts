// Faults under the real, pinned Deno through @codex-rpc/deno: the same cases as under Bun
// (test/reliability/support/runtime-fault-cases.ts) — each program must end by itself soon after
// the fault, with every promise settled.
import { describeRuntimeFaults } from "./support/runtime-fault-cases.js";

describeRuntimeFaults({
  runtime: "deno",
  runtimeName: "Deno",
  // --sloppy-imports: the script imports its helper as `./fault-checks.js`, as TypeScript wants.
  // Reads for the binary search and /proc, runs for codex and kill(2), env for what codex needs.
  runtimeArguments: (script) => ["run", "--no-prompt", "--sloppy-imports", "--allow-run", "--allow-read", "--allow-env", ...script],
});
