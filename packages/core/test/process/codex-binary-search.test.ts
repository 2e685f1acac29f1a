// The runtime-free codex binary search against an in-memory host: what no real file system here
// shows on demand (a runtime's permissions refusing a read or an environment variable, Windows).
// The Node host is tested on real files in @codex-rpc/stdio, the Deno and Bun hosts under their runtimes.
import { describe, expect, it } from "vitest";
import { searchCodexBinary, type CodexBinaryHost, type CodexBinarySearchOptions } from "../../src/process.js";

class Denied extends Error {
  override name = "NotCapable";
}

/** A POSIX-style file system in memory: `files` maps a path to whether it is executable. */
function memoryHost(files: Record<string, boolean>, overrides: Partial<CodexBinaryHost> = {}): CodexBinaryHost {
  const isDirectory = (path: string): boolean => Object.keys(files).some((file) => file.startsWith(`${path}/`));
  return {
    platform: "linux",
    arch: "x64",
    env: () => ({ value: undefined }),
    fileKind: (path) => (path in files ? "file" : isDirectory(path) ? "other" : "missing"),
    canRun: (path) => files[path] === true,
    realPath: (path) => {
      if (path in files || isDirectory(path) || path === "/") return path;
      throw new Error(`ENOENT: ${path}`);
    },
    readTextFile: () => {
      throw new Error("no manifests here");
    },
    joinPath: (directory, ...names) => [directory.replace(/\/+$/, ""), ...names].join("/"),
    dirname: (path) => path.replace(/\/[^/]*$/, "") || "/",
    ...overrides,
  };
}

const search: CodexBinarySearchOptions = { packageSearchFrom: ["/project"], installAdvice: "Install it." };
const NATIVE = "/project/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex";

function searchError(host: CodexBinaryHost, options: CodexBinarySearchOptions = search): Error & { code?: string } {
  try {
    searchCodexBinary(host, options);
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the search to fail");
}

describe("searchCodexBinary", () => {
  it("takes the package's native binary from its platform package", () => {
    const host = memoryHost({
      "/project/node_modules/@openai/codex/package.json": false,
      "/project/node_modules/@openai/codex-linux-x64/package.json": false,
      [NATIVE]: true,
    });
    expect(searchCodexBinary(host, search)).toBe(NATIVE);
  });

  it("names the places a runtime's permissions kept it from, and the environment it could not read", () => {
    const host = memoryHost(
      { "/project/src/index.ts": false },
      {
        env: (name) => ({ problem: `not readable (grant --allow-env=${name})` }),
        fileKind: (path) => {
          if (path.startsWith("/project/node_modules")) throw new Denied(`Requires read access to "${path}"`);
          return "missing";
        },
        permissions: { isDenied: (error) => error instanceof Denied, grantRead: "--allow-read" },
      },
    );
    const lines = searchError(host).message.split("\n");
    expect(lines).toEqual([
      "codex binary not found. Tried, in order:",
      "  - CODEX_BIN: not readable (grant --allow-env=CODEX_BIN)",
      "  - @openai/codex in node_modules from /project upwards: not installed there; no read access to /project/node_modules/@openai/codex (grant --allow-read)",
      "  - PATH: not readable (grant --allow-env=PATH)",
      "Install it.",
    ]);
  });

  it("stops at an unusable CODEX_BIN, saying why, and at an explicit path that cannot be checked", () => {
    const host = memoryHost({ "/opt/codex": false }, { env: (name) => ({ value: name === "CODEX_BIN" ? "/opt/codex" : "/bin" }) });
    expect(searchError(host)).toMatchObject({ code: "BINARY_NOT_FOUND", message: expect.stringContaining("CODEX_BIN=/opt/codex: is not executable") });

    const unreadable = memoryHost(
      {},
      {
        fileKind: () => {
          throw new Denied("Requires read access");
        },
      },
    );
    expect(searchError(unreadable, { ...search, explicitPath: "/x/codex" }).message).toContain(
      "the explicit path /x/codex: cannot be checked (Requires read access)",
    );
  });

  it("looks for codex.exe along a ;-separated PATH on Windows", () => {
    const host = memoryHost({ "C:/tools/codex.exe": true }, { platform: "win32", env: (name) => ({ value: name === "PATH" ? "C:/bin;C:/tools" : undefined }) });
    expect(searchCodexBinary(host, { ...search, packageSearchFrom: [] })).toBe("C:/tools/codex.exe");
  });
});
