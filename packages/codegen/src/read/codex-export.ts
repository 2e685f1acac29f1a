import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CodegenError } from "../util/codegen-error.js";
import { tail } from "./codex-binary.js";

export interface CodexExport {
  /** A schema directory as tools/refresh-schemas.mjs lays it out (manifest, stable/, experimental/). */
  readonly schemasDir: string;
  readonly codexVersion: string;
  /** Removes the temporary directory. */
  dispose(): void;
}

/**
 * Runs `codex app-server generate-json-schema` (and with `--experimental`) of one binary into a
 * temporary directory, with an empty temporary CODEX_HOME and HOME (codex exits at once when
 * CODEX_HOME does not exist, and must not touch the user's ~/.codex).
 */
const INSTALL_ADVICE =
  'install codex (npm install @openai/codex) and pass its path, e.g. --codex "$(command -v codex)", or use --codex-version X to have that version installed from npm';

export function exportCodexSchemas(given: string): CodexExport {
  // codex runs in a temporary folder: a path relative to the caller's folder must not change meaning.
  const binary = resolve(given);
  if (!existsSync(binary)) throw new CodegenError("CODEX_EXPORT_FAILED", `no codex binary at ${given}: ${INSTALL_ADVICE}`);
  const work = mkdtempSync(join(tmpdir(), "codex-rpc-gen-export-"));
  const dispose = () => rmSync(work, { recursive: true, force: true });
  try {
    const home = join(work, "home");
    mkdirSync(home);
    const env = { PATH: process.env.PATH ?? "", HOME: home, CODEX_HOME: home, NO_COLOR: "1" };
    const run = (args: string[]) => {
      // A JavaScript launcher (the package's bin/codex.js) runs under this Node.
      const [command, argv] = /\.(c|m)?js$/.test(binary) ? [process.execPath, [binary, ...args]] : [binary, args];
      const result = spawnSync(command, argv, { env, encoding: "utf8", cwd: home });
      if (result.status !== 0) {
        const why = result.error?.message ?? `exit ${result.status ?? result.signal}: ${tail(result.stderr)}`;
        const advice = result.error ? `; ${INSTALL_ADVICE}` : "";
        throw new CodegenError("CODEX_EXPORT_FAILED", `${given} ${args.join(" ")} failed (${why})${advice}`);
      }
      return result.stdout;
    };
    const reported = run(["--version"]).trim();
    const codexVersion = /(\d+\.\d+\.\d+(?:-[\w.]+)?)\s*$/.exec(reported)?.[1];
    if (!codexVersion) throw new CodegenError("CODEX_EXPORT_FAILED", `cannot read a version from "${reported}"`, { file: binary });
    const schemasDir = join(work, "schemas");
    const commands: Record<string, string> = {};
    for (const [flavor, extra] of [
      ["stable", []],
      ["experimental", ["--experimental"]],
    ] as const) {
      const args = ["app-server", "generate-json-schema", ...extra, "--out", join(schemasDir, flavor)];
      run(args);
      commands[flavor] = `codex app-server generate-json-schema ${extra.join(" ")}${extra.length ? " " : ""}--out ${flavor}`;
    }
    writeFileSync(join(schemasDir, "manifest.json"), `${JSON.stringify({ codexVersion, binary: reported, commands }, null, 2)}\n`);
    return { schemasDir, codexVersion, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}
