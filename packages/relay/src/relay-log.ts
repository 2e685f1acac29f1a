import { redactSecrets } from "@codex-rpc/core/transport";

/** One line the relay logs (connections, refusals, upstream events). */
export type RelayLogger = (line: string) => void;

/** A logger whose every line has secrets redacted, the launch token included wherever it appears. */
export function redactingLogger(log: RelayLogger | undefined, token: string): RelayLogger {
  if (!log) return () => {};
  return (line) => log(redactSecrets(line.split(token).join("[REDACTED]")));
}
