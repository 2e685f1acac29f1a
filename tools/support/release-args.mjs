// The release-publish command line. pnpm 12 hands a script the `--` of `pnpm release:publish --
// --dry-run` as an argument of its own, and parseArgs takes everything after a `--` as positionals:
// `--dry-run` would then be ignored and the release published for real. So a leading `--` is
// dropped, and anything left that is not an option is refused rather than ignored.
import { parseArgs } from "node:util";

/**
 * @param {readonly string[]} argv the arguments after the script's path
 * @returns {{ dryRun: boolean, registry: string | undefined, out: string | undefined, reuse: boolean }}
 * @throws Error naming an argument that is not an option
 */
export function parseReleaseArgs(argv) {
  const args = argv[0] === "--" ? argv.slice(1) : [...argv];
  const { values, positionals } = parseArgs({
    args,
    options: {
      "dry-run": { type: "boolean", default: false },
      registry: { type: "string" },
      out: { type: "string" },
      reuse: { type: "boolean", default: false },
    },
    allowPositionals: true,
  });
  if (positionals.length > 0)
    throw new Error(`not an option: ${positionals.map((p) => JSON.stringify(p)).join(", ")} (options: --dry-run, --registry URL, --out DIR, --reuse)`);
  return { dryRun: values["dry-run"], registry: values.registry, out: values.out, reuse: values.reuse };
}
