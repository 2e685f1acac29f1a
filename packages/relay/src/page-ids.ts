// Ids a page chooses itself (`processId` of `command/exec`, `processHandle`, `watchId`, `sessionId`,
// `subscriptionId`, `fuzzyFileSearch`'s `cancellationToken`) name things in the app-server's one namespace, which every page behind the
// relay shares: two pages that both pick "p1" would collide, and one page could take an id before
// another. So each connection gets a namespace of its own: the relay sends `r<connection>.<id>`
// upstream and hands the page back the id it wrote, in answers, notifications and codex's error
// messages (codex quotes the id: `no active command/exec for process id "…"`, measured on 0.169.0).

/**
 * The fields that hold an id the page chose, and the methods (requests and notifications, by
 * prefix) where they do. The same field names hold ids codex chose elsewhere — `sessionId` of
 * `accountSession/switch` (from `accountSession/list`), `processId` of
 * `thread/backgroundTerminals/terminate` (from its listing) — which pass unchanged.
 */
const PAGE_CHOSEN: readonly (readonly [key: string, methodPrefix: string])[] = [
  ["processId", "command/exec"],
  ["processHandle", "process/"],
  ["watchId", "fs/"],
  ["sessionId", "fuzzyFileSearch/"],
  // A search with a token in use cancels the running one (measured on codex 0.169.0).
  ["cancellationToken", "fuzzyFileSearch"],
  ["subscriptionId", "mcpServer/event/stream/"],
];

/** The page-chosen fields of `method`'s params (or result, or notification). */
function pageChosenKeys(method: string): string[] {
  return PAGE_CHOSEN.filter(([, prefix]) => method.startsWith(prefix)).map(([key]) => key);
}

const SCOPED = /^r(\d+)\./;

/** A page's id and the id it has upstream. */
export interface ScopedId {
  readonly page: string;
  readonly upstream: string;
}

/**
 * `params` with every page-chosen id put in `connection`'s namespace (a copy; `params` itself when it
 * names none), and the ids it rewrote.
 */
export function scopePageIds(method: string, params: unknown, connection: number): { params: unknown; ids: ScopedId[] } {
  const ids: ScopedId[] = [];
  if (typeof params !== "object" || params === null || Array.isArray(params)) return { params, ids };
  const record = params as Record<string, unknown>;
  let scoped: Record<string, unknown> | undefined;
  for (const key of pageChosenKeys(method)) {
    const page = record[key];
    if (typeof page !== "string") continue;
    const upstream = `r${connection}.${page}`;
    scoped ??= { ...record };
    scoped[key] = upstream;
    ids.push({ page, upstream });
  }
  return { params: scoped ?? params, ids };
}

/**
 * Whose namespace the page-chosen ids of an app-server message are in: a connection's number,
 * "unscoped" when it names one outside every namespace (no page asked for it), "none" when it names none.
 */
export function scopeOf(method: string, params: unknown): number | "unscoped" | "none" {
  if (typeof params !== "object" || params === null) return "none";
  const record = params as Record<string, unknown>;
  for (const key of pageChosenKeys(method)) {
    const value = record[key];
    if (typeof value !== "string") continue;
    const match = SCOPED.exec(value);
    return match ? Number(match[1]) : "unscoped";
  }
  return "none";
}

/** `record` with `connection`'s namespace taken off its page-chosen ids (a copy; `record` when there is none). */
export function unscopePageIds<T>(method: string, record: T, connection: number): T {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return record;
  const prefix = `r${connection}.`;
  let plain: Record<string, unknown> | undefined;
  for (const key of pageChosenKeys(method)) {
    const value = (record as Record<string, unknown>)[key];
    if (typeof value !== "string" || !value.startsWith(prefix)) continue;
    plain ??= { ...(record as Record<string, unknown>) };
    plain[key] = value.slice(prefix.length);
  }
  return (plain ?? record) as T;
}

/** An error message of codex's with the upstream ids it quotes put back as the page wrote them. */
export function unscopeMessage(message: string, ids: readonly ScopedId[]): string {
  let text = message;
  for (const { page, upstream } of ids) text = replaceStandingAlone(text, upstream, page);
  return text;
}

/** A letter, digit or `_`: what an id quoted in a text cannot touch (`/srv/builder1.app` holds `r1.a`). */
const WORD_CHARACTER = /\w/;

/** `text` with each occurrence of `id` that stands alone (not inside a longer word) replaced by `by`. */
function replaceStandingAlone(text: string, id: string, by: string): string {
  let result = "";
  let copied = 0;
  let at = text.indexOf(id);
  while (at !== -1) {
    const end = at + id.length;
    const alone = (at === 0 || !WORD_CHARACTER.test(text[at - 1]!)) && (end === text.length || !WORD_CHARACTER.test(text[end]!));
    if (alone) {
      result += text.slice(copied, at) + by;
      copied = end;
    }
    at = text.indexOf(id, alone ? end : at + 1);
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/** How deep `unscopeErrorData` looks into a value; deeper parts pass as they are. */
const MAX_DATA_DEPTH = 64;

/**
 * An error's `data` with the upstream ids it quotes put back as the page wrote them, in every
 * string of it (a copy of what changed; `data` itself when nothing did). Strings, not the JSON
 * text: an escape such as `\r` before `1.x` must not be taken for part of an id.
 */
export function unscopeErrorData(data: unknown, ids: readonly ScopedId[]): unknown {
  return ids.length === 0 ? data : unscopeValue(data, ids, 0);
}

function unscopeValue(value: unknown, ids: readonly ScopedId[], depth: number): unknown {
  if (typeof value === "string") return unscopeMessage(value, ids);
  if (typeof value !== "object" || value === null || depth >= MAX_DATA_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => unscopeValue(item, ids, depth + 1));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  const entries = Object.entries(value);
  const unscoped = entries.map(([key, item]) => [key, unscopeValue(item, ids, depth + 1)] as const);
  if (unscoped.every(([, item], index) => item === entries[index]![1])) return value;
  const copy: Record<string, unknown> = {};
  // Defined, not assigned: a `__proto__` key (JSON.parse makes those) stays a key.
  for (const [key, item] of unscoped) Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
  return copy;
}
