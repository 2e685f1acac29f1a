// Every path the suite runs: a runtime and the entry module (under paths/) that opens its transport.
import { fileURLToPath } from "node:url";
import type { ConformanceRuntime } from "./runtime-command.js";

export interface ConformancePath {
  readonly name: string;
  readonly runtime: ConformanceRuntime;
  /** Absolute path of the entry module. */
  readonly entry: string;
}

const entry = (file: string) => fileURLToPath(new URL(`./paths/${file}`, import.meta.url));

export const CONFORMANCE_PATHS: readonly ConformancePath[] = [
  { name: "Node 20 stdio", runtime: "node20", entry: entry("node-stdio.mjs") },
  { name: "Node 20 WebSocket (ws)", runtime: "node20", entry: entry("node20-websocket.mjs") },
  { name: "Node 22 WebSocket (global)", runtime: "node22", entry: entry("global-websocket-node.mjs") },
  { name: "Node 20 Unix socket", runtime: "node20", entry: entry("node-unix-socket.mjs") },
  { name: "Deno stdio", runtime: "deno", entry: entry("deno-stdio.mjs") },
  { name: "Deno WebSocket", runtime: "deno", entry: entry("deno-websocket.mjs") },
  { name: "Bun stdio", runtime: "bun", entry: entry("bun-stdio.mjs") },
  { name: "Bun WebSocket", runtime: "bun", entry: entry("global-websocket-node.mjs") },
];

/**
 * Chromium via the relay: the cases run in a page (a Node 20 script drives Chromium). Only where
 * the client uses @codex-rpc/protocol: a page cannot import a protocol generated into a file: URL.
 */
export const CHROMIUM_PATH: ConformancePath = { name: "Chromium via relay", runtime: "node20", entry: entry("chromium-relay.mjs") };

/** The Effect binding (@codex-rpc/effect) on each runtime, with its spawning Layer: run against the pinned codex only. */
export const EFFECT_CONFORMANCE_PATHS: readonly ConformancePath[] = [
  { name: "Node 20 stdio · Effect", runtime: "node20", entry: entry("effect-node-stdio.mjs") },
  { name: "Deno stdio · Effect", runtime: "deno", entry: entry("effect-deno-stdio.mjs") },
  { name: "Bun stdio · Effect", runtime: "bun", entry: entry("effect-bun-stdio.mjs") },
];
