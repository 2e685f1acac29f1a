/**
 * codex's JSON parser (serde_json) stops at 128 levels of arrays and objects: a deeper message is
 * dropped whole and never answered (measured on codex 0.169.0: a request 127 levels deep is read,
 * one 128 deep is not). A reply to a server request puts the answer one level deep (`result`) or
 * two (`error.data`).
 */
export const MAX_REPLY_NESTING = 125;

/** Whether JSON text (as JSON.stringify writes it) nests arrays and objects deeper than `limit`. */
export function nestsDeeperThan(json: string, limit: number): boolean {
  // Each level takes two brackets, so a short text cannot be that deep (the common case).
  if (json.length <= limit * 2) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      if (++depth > limit) return true;
    } else if (c === "]" || c === "}") depth--;
  }
  return false;
}
