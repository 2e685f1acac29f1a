import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * A path as generated headers and messages show it: relative to `cwd` with `/` separators and no
 * `./` when it is inside `cwd`, absolute otherwise. `./schemas/x`, `schemas/x/` and the absolute
 * spelling all come out the same, so the output does not depend on how a path was typed.
 */
export function displayPath(path: string, cwd: string = process.cwd()): string {
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute);
  if (rel === "") return ".";
  const outside = rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  return (outside ? absolute : rel).split(sep).join("/");
}
