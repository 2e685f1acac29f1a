// The Effect binding on Node (20 under vitest): layerSpawn over @codex-rpc/stdio (what layerNode is).
import { spawnCodexAppServer } from "@codex-rpc/stdio";
import { runEffectPath } from "./effect-path.mjs";
import { nodeProcess } from "./node-process.mjs";

await runEffectPath(spawnCodexAppServer, nodeProcess);
