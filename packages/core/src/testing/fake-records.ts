import type { ThreadItem, Turn, TurnStatus } from "@codex-rpc/protocol";

/** A Turn with every field the 0.169.0 schema requires. */
export function fakeTurn(id: string, status: TurnStatus, items: ThreadItem[]): Turn {
  return { id, status, items, error: null, startedAt: null, completedAt: null, durationMs: null, itemsView: "full", rootTurnId: null } as Turn;
}

/** A Thread with every field the 0.169.0 schema requires, so clients that validate accept the fake's replies. */
export function fakeThread(id: string, turns: Turn[]) {
  return {
    id,
    sessionId: `session-${id}`,
    turns,
    preview: "",
    cwd: "/tmp",
    status: { type: "idle" },
    createdAt: 0,
    updatedAt: 0,
    modelProvider: "fake",
    cliVersion: "0.0.0",
    agentNickname: null,
    agentRole: null,
    ephemeral: false,
    forkedFromId: null,
    gitInfo: null,
    historyMode: "legacy",
    model: null,
    name: null,
    originator: null,
    parentThreadId: null,
    path: null,
    projectId: null,
    reasoningEffort: null,
    recencyAt: null,
    section: null,
    sectionEnteredAt: null,
    source: "appServer",
    threadSource: null,
  };
}

/** The `thread/start` result for a new thread. */
export function fakeThreadStartResult(id: string) {
  return {
    thread: fakeThread(id, []),
    model: "fake-model",
    modelProvider: "fake",
    cwd: "/tmp",
    approvalPolicy: "never",
    approvalsReviewer: "user",
    disabledPluginIds: [],
    instructionSources: [],
    reasoningEffort: null,
    sandbox: { type: "dangerFullAccess" },
    serviceTier: null,
  };
}
