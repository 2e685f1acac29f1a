// @codex-rpc/bun under the real, pinned Bun against the real codex app-server, offline: the cases
// every adapter passes (test/support/real-codex-adapter-cases.ts).
import { describeAdapterAgainstRealCodex } from "@codex-rpc/test-support/real-codex-adapter-cases.js";

describeAdapterAgainstRealCodex({
  runtime: "bun",
  runtimeName: "Bun",
  // --no-install: resolve from node_modules only, never auto-install from the registry.
  runtimeArguments: (script) => ["--no-install", ...script],
});
