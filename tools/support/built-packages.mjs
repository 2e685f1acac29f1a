// The workspace packages as the measuring programs use them: their built output, with a clear
// message when it is missing (these programs run from the repository, not from a published install).
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Imports a built file of the repository, e.g. `packages/core/dist/index.js`; exits 2 if it is not built. */
export async function importBuilt(relativePath) {
  const file = join(ROOT, relativePath);
  if (!existsSync(file)) {
    console.error(`${relativePath} is not built: run \`npx -y pnpm@12.21.0 build\` first`);
    process.exit(2);
  }
  return import(pathToFileURL(file).href);
}
