import { DEFAULT_REQUEST_TIMEOUT_MS } from "../rpc/json-rpc-connection.js";
import { loadWithin } from "../rpc/load-within.js";
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
 * bad reconnect options a TypeError, as before. A load that stalls fails `connect` as its
 * `initialize` would: after `requestTimeoutMs`, or when `signal` aborts (there is no client to close yet).
 */
export async function loadOptionalParts(options: {
  readonly tools?: readonly DynamicTool[];
  readonly reconnect?: boolean | ReconnectOptions;
  readonly requestTimeoutMs?: number;
  readonly signal?: AbortSignal;
}): Promise<OptionalParts> {
  const [toolModule, policyModule, reconnectorModule] = await loadWithin(
    Promise.all([
      options.tools ? import("./tool-runtime.js") : undefined,
      options.reconnect ? import("./reconnect-policy.js") : undefined,
      options.reconnect ? import("./reconnector.js") : undefined,
    ]),
    "initialize",
    options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    options.signal,
  );
  const policy = policyModule?.resolveReconnect(options.reconnect === true || !options.reconnect ? {} : options.reconnect);
  const tools = toolModule && options.tools ? new toolModule.ToolRuntime(options.tools) : undefined;
  return {
    ...(tools ? { tools } : {}),
    ...(policy && reconnectorModule ? { reconnector: (steps: ReconnectSteps) => new reconnectorModule.Reconnector(policy, steps) } : {}),
  };
}
