import type { DynamicTool } from "./dynamic-tools.js";
import type { ReconnectOptions } from "./reconnect-policy.js";
import type { Reconnector, ReconnectSteps } from "./reconnector.js";
import type { ToolRuntime } from "./tool-runtime.js";

/** What only some options need: present when the option was given. */
export interface OptionalParts {
  /** The `tools` option, checked and indexed. */
  readonly tools?: ToolRuntime;
  /** Makes the reconnect loop of the `reconnect` option. */
  readonly reconnector?: (steps: ReconnectSteps) => Reconnector;
}

/**
 * Loads (`import()`) the parts of a client that only some options need — the tools runtime for
 * `tools`, the reconnect loop for `reconnect` — so a client without them does not carry them.
 * Called by `CodexClient.connect` before anything is opened: a bad tool is an InvalidOptionError,
 * bad reconnect options a TypeError, as before.
 */
export async function loadOptionalParts(options: {
  readonly tools?: readonly DynamicTool[];
  readonly reconnect?: boolean | ReconnectOptions;
}): Promise<OptionalParts> {
  const [toolModule, policyModule, reconnectorModule] = await Promise.all([
    options.tools ? import("./tool-runtime.js") : undefined,
    options.reconnect ? import("./reconnect-policy.js") : undefined,
    options.reconnect ? import("./reconnector.js") : undefined,
  ]);
  const policy = policyModule?.resolveReconnect(options.reconnect === true || !options.reconnect ? {} : options.reconnect);
  const tools = toolModule && options.tools ? new toolModule.ToolRuntime(options.tools) : undefined;
  return {
    ...(tools ? { tools } : {}),
    ...(policy && reconnectorModule ? { reconnector: (steps: ReconnectSteps) => new reconnectorModule.Reconnector(policy, steps) } : {}),
  };
}
