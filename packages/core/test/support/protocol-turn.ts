// A protocol Turn as a fake server's notifications carry it (every field codex 0.169.0 sends).
export function protocolTurn(id: string, status: string, rootTurnId: string | null = id) {
  return { id, status, items: [], error: null, startedAt: null, completedAt: null, durationMs: null, itemsView: "notLoaded", rootTurnId };
}
