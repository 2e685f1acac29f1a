// The Effect binding on Deno: layerSpawn over @codex-rpc/deno (what layerDeno is).
import { spawnCodexAppServer } from "@codex-rpc/deno";
import { denoProcess } from "./deno-process.mjs";
import { runEffectPath } from "./effect-path.mjs";

await runEffectPath(spawnCodexAppServer, denoProcess);
