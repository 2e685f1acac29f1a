// Run by test/consumer-generated-protocol.real-codex.test.ts inside the fresh consumer project, which has
// @openai/codex installed: what @codex-rpc/stdio says when codex cannot be found. Prints one JSON
// line per attempt.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findCodexBinary, spawnCodexAppServer } from "@codex-rpc/stdio";

const empty = await mkdtemp(join(tmpdir(), "codex-rpc-no-codex-"));
const attempts = {
  // A path that is not there: an error at once, never a fallback to another codex.
  explicitPath: () => spawnCodexAppServer({ codexPath: "/nonexistent/codex" }),
  // Nothing anywhere: no CODEX_BIN, no @openai/codex where it looks, an empty PATH.
  search: async () => findCodexBinary({ env: { PATH: "" }, packageSearchFrom: [empty] }),
};
try {
  for (const [attempt, run] of Object.entries(attempts)) {
    try {
      await run();
      console.log(JSON.stringify({ attempt, found: true }));
    } catch (error) {
      console.log(JSON.stringify({ attempt, found: false, name: error?.name, code: error?.code, message: error?.message }));
    }
  }
} finally {
  await rm(empty, { recursive: true, force: true });
}
