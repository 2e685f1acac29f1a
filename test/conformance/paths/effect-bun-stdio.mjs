// The Effect binding on Bun: layerSpawn over @codex-rpc/bun (what layerBun is).
import { spawnCodexAppServer } from "@codex-rpc/bun";
import { runEffectPath } from "./effect-path.mjs";
import { nodeProcess } from "./node-process.mjs";

await runEffectPath(spawnCodexAppServer, nodeProcess);
