// Once for the `packed` project: a local registry (verdaccio) with every public package packed and
// published to it by the release's own publish step; its address goes to the test files through
// CODEX_RPC_TEST_REGISTRY (and its .npmrc through CODEX_RPC_TEST_NPMRC), what the dry run before the
// publish and the publish printed through CODEX_RPC_TEST_DRY_RUN and CODEX_RPC_TEST_PUBLISHED.
// Stopped after the run.
import { startLocalRegistry } from "../support/local-registry.js";

export default async function setup(): Promise<() => Promise<void>> {
  const started = Date.now();
  const registry = await startLocalRegistry();
  console.log(
    `\nlocal registry ${registry.url}: dry run, then packed and published, in ${((Date.now() - started) / 1000).toFixed(1)} s\n${registry.dryRunOutput}\n${registry.publishOutput}`,
  );
  process.env.CODEX_RPC_TEST_DRY_RUN = registry.dryRunOutput;
  process.env.CODEX_RPC_TEST_PUBLISHED = registry.publishOutput;
  process.env.CODEX_RPC_TEST_REGISTRY = registry.url;
  process.env.CODEX_RPC_TEST_NPMRC = registry.npmrc;
  process.env.CODEX_RPC_TEST_TARBALLS = registry.tarballs;
  return () => registry.stop();
}
