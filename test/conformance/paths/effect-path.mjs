// What every Effect binding path does: the cases of effect-cases.mjs, each connection the runtime's
// spawning Layer over the adapter's spawnCodexAppServer.
import { runConformanceCases } from "../cases.mjs";
import { EFFECT_CASES, EffectServerSet } from "../effect-cases.mjs";

/**
 * @param {(options: object) => Promise<import("@codex-rpc/core").Transport & { pid: number }>} spawnCodexAppServer the adapter's
 * @param {typeof import("./node-process.mjs").nodeProcess} host the runtime's process host
 */
export async function runEffectPath(spawnCodexAppServer, host) {
  await runConformanceCases({ config: host.readConfig(), ...host, spawnCodexAppServer }, EFFECT_CASES, (path, protocol) => new EffectServerSet(path, protocol));
  host.exit(0);
}
