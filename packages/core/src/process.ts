// @codex-rpc/core/process: what the process adapters (stdio, Deno, Bun) share: the transport over a
// child's web streams, stderr capture, the codex binary search, the child's environment and the
// reaper of orphaned children.
export type { ProcessTransportOptions } from "./process/process-transport-options.js";
export {
  WebStreamProcessTransport,
  type ProcessExit,
  type ProcessStdin,
  type WebStreamProcess,
} from "./process/web-stream-process-transport.js";
export { StderrTail } from "./process/stderr-tail.js";
export { readStderrInto, type StderrReader } from "./process/stderr-reader.js";
export { createOrphanReaper, type TerminableChild } from "./process/orphan-reaper.js";
export { CODEX_ENVIRONMENT_NEEDS, codexChildEnvironment } from "./process/codex-child-environment.js";
export {
  codexPlatformTarget,
  environmentFromRecord,
  isNodeScript,
  searchCodexBinary,
  type CodexBinaryHost,
  type CodexBinarySearchOptions,
  type CodexPlatformTarget,
  type EnvironmentLookup,
} from "./process/codex-binary-search.js";
export { nodeStyleBinaryHost, type NodeStyleFileSystem, type NodeStyleHostOptions } from "./process/node-style-binary-host.js";
export { shutDownProcess, type ShutdownSteps } from "./process/shutdown-sequence.js";
export { describeSpawnError } from "./process/spawn-error.js";
export type { SpawnCodexAppServerOptions } from "./process/spawn-options.js";
export { stripAnsi } from "./process/strip-ansi.js";
export { connectSpawned } from "./client/connect-spawned.js";
