// The cases every path runs, in order, and what the scripted model does in them. Shared by the
// case script (any runtime) and the Node orchestrator, which scripts the model and fills the table.

/** Each case has its own mock model and CODEX_HOME (its "scope"), so one failing case cannot feed another stale replies. */
export const CONFORMANCE_CASES = [
  { id: "handshake", label: "handshake" },
  { id: "versions", label: "version check" },
  { id: "threadStart", label: "thread start" },
  { id: "approvalTurn", label: "turn+approval" },
  { id: "interrupt", label: "interrupt" },
  { id: "killMidTurn", label: "SIGKILL mid-turn" },
];

/** The approval case: the model asks to run `command` (escalated, so codex asks the client), then says `finalText`. */
export const APPROVAL_TURN = {
  command: "echo conformance-ran",
  commandOutput: "conformance-ran",
  finalText: "The command ran, and this text streamed in pieces.",
  textChunks: 4,
};

/** How long the client may take to report the SIGKILLed server (the figure is < 100 ms; machines are shared). */
export const KILL_REPORT_BOUND_MS = 2_000;

/**
 * The version-check case calls a method only newer servers have (`codex-rpc-gen diff` of the vendored
 * schemas: `modelProvider/list` is new in 0.169.0; it answers offline). An older server must make the
 * client reject with METHOD_NOT_SUPPORTED naming the server's and the protocol's codex versions.
 */
export const NEWER_METHOD = { method: "modelProvider/list", params: {}, since: "0.169.0" };
