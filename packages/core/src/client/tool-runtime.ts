import type { DynamicToolCallParams, DynamicToolCallResponse } from "@codex-rpc/protocol";
import type { DynamicToolSpec } from "@codex-rpc/protocol/experimental";
import type { DynamicTool } from "./dynamic-tools.js";
import { callDynamicTool, type ListenToThread } from "./tool-call.js";
import { ToolRegistry } from "./tool-registry.js";

/**
 * The `tools` option at work: checked and indexed (ToolRegistry), and calls answered
 * (callDynamicTool). Loaded on demand (`import()`) by `CodexClient.connect` only when `tools` are
 * given, so a client without tools does not carry the schema checks.
 */
export class ToolRuntime {
  readonly #registry: ToolRegistry;

  /** Throws InvalidOptionError for a bad tool. */
  constructor(tools: readonly DynamicTool[]) {
    this.#registry = new ToolRegistry(tools);
  }

  get size(): number {
    return this.#registry.size;
  }

  /** The `dynamicTools` of `thread/start`. */
  specs(): DynamicToolSpec[] {
    return this.#registry.specs();
  }

  call(params: DynamicToolCallParams, signal: AbortSignal, listenToThread?: ListenToThread): Promise<DynamicToolCallResponse> {
    return callDynamicTool(this.#registry, params, signal, listenToThread);
  }
}
