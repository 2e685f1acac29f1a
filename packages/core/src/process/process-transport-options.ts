/**
 * The options every process transport (NodeStdioTransport, DenoStdioTransport, BunStdioTransport) takes for the server
 * process it wraps: how much stderr to keep, how `close()` escalates, and how stdout is framed.
 */
export interface ProcessTransportOptions {
  /** How many stderr lines to keep for `stderrTail()` and close infos. Default 50. */
  readonly stderrTailLines?: number;
  /** `close()`: how long to wait for the process to exit after its stdin ends, before SIGTERM. Default 2000 ms. */
  readonly stdinEndTimeoutMs?: number;
  /** `close()`: how long to wait after SIGTERM before SIGKILL. Default 2000 ms. */
  readonly sigtermTimeoutMs?: number;
  /** The longest stdout line accepted, in bytes. Default 128 MiB. */
  readonly maxLineBytes?: number;
  /** How long to wait for the exit after stdout ends (and for stdout to drain after the exit). Default 1000 ms. */
  readonly eofGraceMs?: number;
}
