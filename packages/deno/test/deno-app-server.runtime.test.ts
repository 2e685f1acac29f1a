// @codex-rpc/deno under the real, pinned Deno against the real codex app-server, offline: the cases
// every adapter passes (test/support/real-codex-adapter-cases.ts), run with the permissions the
// README documents.
import { describeAdapterAgainstRealCodex, REPOSITORY_ROOT } from "@codex-rpc/test-support/real-codex-adapter-cases.js";

/** The permissions the README documents for the full binary search; the script gets nothing more. */
const SEARCH_PERMISSIONS = ["--allow-run", "--allow-read", "--allow-env=CODEX_BIN,PATH"];
/** The README's minimum when @openai/codex is installed in the project: no env access, reads confined to it. */
const MINIMAL_PERMISSIONS = ["--allow-run", `--allow-read=${REPOSITORY_ROOT}`];

describeAdapterAgainstRealCodex({
  runtime: "deno",
  runtimeName: "Deno",
  // The repository's package.json and node_modules resolve the bare specifiers ("manual" mode): no flags needed.
  // A full turn runs with the minimum; the other scenarios search for the binary with everything it may use.
  runtimeArguments: (script, scenario) => ["run", "--no-prompt", ...(scenario === "turn" ? MINIMAL_PERMISSIONS : SEARCH_PERMISSIONS), ...script],
});
