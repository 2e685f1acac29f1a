import { filter } from "rxjs";
import { InvalidOptionError, RequestAbortedError } from "../errors/errors.js";
import type { DefaultProtocolTypes, ParamsIn, ProtocolTypesShape } from "../rpc/protocol-types.js";
import { CodexCommand } from "../session/codex-command.js";
import { isRecord } from "../util/is-record.js";
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
  const terminate = () => void host.request("command/exec/terminate", { processId }).catch(() => undefined);
  const running = new CodexCommand<T>(processId, {
    output: host.notifications("command/exec/outputDelta").pipe(filter((delta) => isRecord(delta) && delta.processId === processId)),
    start: () => {
      if (signal?.aborted) return Promise.reject(new RequestAbortedError("command/exec", undefined, signal.reason));
      signal?.addEventListener("abort", terminate, { once: true });
      const reply = host.request("command/exec", params);
      const done = () => signal?.removeEventListener("abort", terminate);
      reply.then(done, done);
      return reply;
    },
    request: (method, requestParams) => host.request(method, requestParams),
    load: (method, load) => host.load(method, load, { signal }),
    report: (diagnostic) => host.report(diagnostic),
  });
  return running;
}
