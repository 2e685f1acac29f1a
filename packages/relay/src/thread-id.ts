/**
 * A thread id in codex's canonical spelling. codex 0.169.0 parses a thread id as a UUID in any
 * spelling the `uuid` crate accepts — upper case, no hyphens, `{…}`, `urn:uuid:…` (measured:
 * `thread/read`, `thread/resume` and `thread/fork` each answered with the thread for all four) —
 * and always answers with the lower-case hyphenated form. The relay keys ownership by that form,
 * so every id a page sends is rewritten to it before it is compared or forwarded. A value that is
 * not a UUID is returned unchanged (codex refuses it).
 */
export function canonicalThreadId(value: string): string {
  let hex = value.trim();
  if (/^urn:uuid:/i.test(hex)) hex = hex.slice("urn:uuid:".length);
  else if (hex.startsWith("{") && hex.endsWith("}")) hex = hex.slice(1, -1);
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(hex)) hex = hex.replaceAll("-", "");
  if (!/^[0-9a-f]{32}$/i.test(hex)) return value;
  const lower = hex.toLowerCase();
  return `${lower.slice(0, 8)}-${lower.slice(8, 12)}-${lower.slice(12, 16)}-${lower.slice(16, 20)}-${lower.slice(20)}`;
}
