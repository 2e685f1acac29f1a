import { InvalidOptionError } from "../errors/errors.js";
import type { DefaultProtocolTypes, ParamsIn, ProtocolTypesShape } from "../rpc/protocol-types.js";
import { CodexCommand } from "../session/codex-command.js";
import { clientChosenId, type ApiHost } from "./api-host.js";

/**
 * `command/exec`'s params but the command (and `streamStdoutStderr`, always on: the output
 * streams), typed by the client's protocol; `processId` is chosen for you unless given. Plus a
 * `signal` that terminates the command.
 */
export type ExecOptions<T extends ProtocolTypesShape = DefaultProtocolTypes> = Omit<
  Exclude<ParamsIn<T["clientRequests"], "command/exec">, undefined>,
  "command" | "streamStdoutStderr"
> & {
  /** Aborting it terminates the command (`command/exec/terminate`). */
  readonly signal?: AbortSignal;
};

/**
 * Runs a command through `command/exec` with its output streamed (`streamStdoutStderr`), under
 * codex's sandbox (the user's configured policy unless `sandboxPolicy` says otherwise). The command
 * listens for its output before the request goes out.
 */
export function startCommand<T extends ProtocolTypesShape>(
  host: ApiHost,
  command: readonly string[],
  options: ExecOptions<T> = {} as ExecOptions<T>,
): CodexCommand<T> {
  if (command.length === 0) throw new InvalidOptionError("command", "an empty argv: name the program to run");
  const { signal, ...rest } = options as ExecOptions & Record<string, unknown>;
  const processId = typeof rest.processId === "string" ? rest.processId : clientChosenId("codex-rpc-exec");
  const params = { ...rest, command: [...command], processId, streamStdoutStderr: true };
  return new CodexCommand<T>(processId, {
    params,
    signal,
    notifications: host.notifications,
    request: host.request,
    load: (method, load) => host.load(method, load, { signal }),
    report: host.report,
  });
}
