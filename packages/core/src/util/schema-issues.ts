import { isRecord } from "./is-record.js";

/**
 * A Standard Schema result's issues as lines `path: message` (the path `a.b[0]`, left out at the
 * root), at most `max` of them plus a count of the rest. Whatever a validator returns (an
 * `issues` that is no array, null entries, a path that is no array) gives lines, never a throw.
 */
export function issueLines(issues: unknown, max: number, messageLength = 200): string[] {
  const list: readonly unknown[] = Array.isArray(issues) ? issues : [issues];
  const lines = list.slice(0, max).map((issue) => {
    const path = issuePath(issue);
    const message = isRecord(issue) && issue.message !== undefined ? String(issue.message) : "invalid";
    return `${path === "" ? "" : `${path}: `}${message.slice(0, messageLength)}`;
  });
  if (list.length > max) lines.push(`and ${list.length - max} more`);
  return lines;
}

/** Where an issue is, as `a.b[0]` (empty for the root or a path it cannot read). */
export function issuePath(issue: unknown): string {
  const segments = isRecord(issue) && Array.isArray(issue.path) ? issue.path : [];
  let path = "";
  for (const segment of segments) {
    const key: unknown = isRecord(segment) ? segment.key : segment;
    path += typeof key === "number" ? `[${key}]` : `${path === "" ? "" : "."}${String(key)}`;
  }
  return path;
}
