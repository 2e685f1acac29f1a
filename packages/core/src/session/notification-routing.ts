/** The thread a notification belongs to: `params.threadId`, or `params.thread.id`. */
export function threadIdOf(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const record = params as { threadId?: unknown; thread?: { id?: unknown } };
  if (typeof record.threadId === "string") return record.threadId;
  const id = record.thread?.id;
  return typeof id === "string" ? id : undefined;
}

/** The turn a notification belongs to: `params.turnId`, or `params.turn.id`. */
export function turnIdOf(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const record = params as { turnId?: unknown; turn?: { id?: unknown } };
  if (typeof record.turnId === "string") return record.turnId;
  const id = record.turn?.id;
  return typeof id === "string" ? id : undefined;
}
