// The little path arithmetic the binary search needs, without `node:path` (this package uses
// Deno's own APIs only). Windows accepts both separators.

const onWindows = Deno.build.os === "windows";
const SEPARATOR = onWindows ? "\\" : "/";
const SEPARATORS = onWindows ? /[\\/]+/ : /\/+/;

export function joinPath(directory: string, ...names: string[]): string {
  return [directory.replace(/[\\/]+$/, ""), ...names].join(SEPARATOR);
}

/** The parent directory; the root is its own parent. */
export function parentDirectory(path: string): string {
  const parts = path.split(SEPARATORS);
  if (parts.length <= 1 || (parts.length === 2 && parts[1] === "")) return path; // "/" or "C:\"
  const parent = parts.slice(0, -1).join(SEPARATOR);
  if (parent === "") return SEPARATOR;
  return /^[A-Za-z]:$/.test(parent) ? `${parent}${SEPARATOR}` : parent;
}
