import { environmentFromRecord, isNodeScript, type CodexBinaryHost } from "./codex-binary-search.js";

/**
 * The parts of `node:fs` and `node:path` the binary search uses. Node and Bun pass their own
 * modules (core imports no runtime); the search's view of them is built once, here.
 */
export interface NodeStyleFileSystem {
  statSync(path: string): { isFile(): boolean };
  accessSync(path: string, mode: number): void;
  realpathSync(path: string): string;
  readFileSync(path: string, encoding: "utf8"): string;
  readonly constants: { readonly R_OK: number; readonly X_OK: number };
  join(...paths: string[]): string;
  dirname(path: string): string;
}

export interface NodeStyleHostOptions {
  /** `process.platform` and `process.arch`. */
  readonly platform: string;
  readonly arch: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The runtime runs `.js` launchers with Node: a script then only needs to be readable. */
  readonly runsNodeScripts: boolean;
}

/** The binary search's view of a runtime with Node's `fs` and `path` (Node itself, Bun). */
export function nodeStyleBinaryHost(fs: NodeStyleFileSystem, options: NodeStyleHostOptions): CodexBinaryHost {
  return {
    platform: options.platform,
    arch: options.arch,
    env: environmentFromRecord(options.env),
    fileKind: (path) => {
      try {
        return fs.statSync(path).isFile() ? "file" : "other";
      } catch {
        return "missing";
      }
    },
    // Windows has no execute permission; scripts run under Node only need to be readable.
    canRun: (path) => {
      const readable = options.platform === "win32" || (options.runsNodeScripts && isNodeScript(path));
      fs.accessSync(path, readable ? fs.constants.R_OK : fs.constants.X_OK);
      return true;
    },
    realPath: (path) => fs.realpathSync(path),
    readTextFile: (path) => fs.readFileSync(path, "utf8"),
    joinPath: (directory, ...names) => fs.join(directory, ...names),
    dirname: (path) => fs.dirname(path),
  };
}
