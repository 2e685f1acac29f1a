// The real codex 0.169.0, spawned in a fresh CODEX_HOME pointed at a MockResponsesProvider, with a
// workspace folder: the upstream of the relay's real-codex tests.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { pinnedCodexBinary } from "@codex-rpc/test-support/pinned-codex.js";
import { type CodexHome, createCodexHome, MockResponsesProvider, type ScriptedReply } from "@codex-rpc/testing";

export async function spawnCodexInHome(script: readonly ScriptedReply[]) {
  const provider = await MockResponsesProvider.start({ script: [...script] });
  const home: CodexHome = await createCodexHome({ provider });
  const workspace = join(home.dir, "workspace");
  await mkdir(workspace);
  const spawned = await spawnCodexAppServer({
    codexPath: pinnedCodexBinary(),
    cwd: workspace,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env },
  });
  return { provider, home, workspace, spawned };
}
