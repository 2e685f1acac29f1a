// Faults under the real, pinned Bun through @codex-rpc/bun: the server SIGKILLed before
// `initialize`, mid-stream and with an approval pending, and an EOF with a request pending. Bun 1.4
// spins a core on a top-level await that never settles, so each program must end by itself soon
// after the fault (test/reliability/support/runtime-fault-cases.ts).
import { describeRuntimeFaults } from "./support/runtime-fault-cases.js";

describeRuntimeFaults({
  runtime: "bun",
  runtimeName: "Bun",
  // --no-install: resolve from node_modules only, never auto-install from the registry.
  runtimeArguments: (script) => ["--no-install", ...script],
});
