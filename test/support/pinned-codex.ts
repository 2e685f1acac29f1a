// The one way tests find the codex this repository pins (the `@openai/codex` devDependency, 0.169.0),
// whatever CODEX_BIN or PATH say: the tests assert that version's exact behaviour. Tests of the
// binary search itself (findCodexBinary, spawnCodexAppServer without a path, the Deno and Bun
// adapters' own searches) exercise the product's search instead, on purpose.
// `@codex-rpc/stdio` resolves from the repository root's node_modules, as for every root test; the
// package does not declare it, so stdio's tests can depend on this package without a cycle.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findCodexBinary } from "@codex-rpc/stdio";

/** The repository's root directory. */
export const REPOSITORY_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The codex version the root package.json pins. */
export const PINNED_CODEX_VERSION: string = (
  JSON.parse(readFileSync(join(REPOSITORY_ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }
).devDependencies["@openai/codex"]!;

let found: string | undefined;

/** The absolute path of the pinned codex's native binary, from the repository's node_modules. */
export function pinnedCodexBinary(): string {
  return (found ??= findCodexBinary({ env: {}, packageSearchFrom: [REPOSITORY_ROOT] }));
}
