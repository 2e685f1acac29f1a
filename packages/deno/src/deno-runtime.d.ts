// The Deno APIs this package uses, declared by hand (a subset of Deno's own `lib.deno.ns.d.ts`,
// with the same names and shapes): the package is compiled without Deno's types, which are not
// on npm. The web-platform APIs every runtime shares come from core's web-platform.d.ts.
// Declarations only, and not shipped: the public API mentions no Deno type.

declare namespace Deno {
  type Signal = "SIGTERM" | "SIGKILL";

  interface CommandOptions {
    args?: string[];
    cwd?: string;
    /** Added to the parent's environment, or the whole environment with `clearEnv`. */
    env?: Record<string, string>;
    clearEnv?: boolean;
    stdin?: "piped" | "inherit" | "null";
    stdout?: "piped" | "inherit" | "null";
    stderr?: "piped" | "inherit" | "null";
  }

  interface CommandStatus {
    readonly success: boolean;
    /** With a signal: 128 + the signal's number. */
    readonly code: number;
    readonly signal: string | null;
  }

  class ChildProcess {
    readonly pid: number;
    readonly stdin: WritableStream<Uint8Array>;
    readonly stdout: ReadableStream<Uint8Array>;
    readonly stderr: ReadableStream<Uint8Array>;
    readonly status: Promise<CommandStatus>;
    /** @throws TypeError when the process has already exited. */
    kill(signo?: Signal): void;
  }

  class Command {
    constructor(command: string, options?: CommandOptions);
    /** @throws Deno.errors.NotFound when the command or the working directory does not exist. */
    spawn(): ChildProcess;
  }

  interface FileInfo {
    readonly isFile: boolean;
    /** Unix permission bits; null on Windows. */
    readonly mode: number | null;
  }

  function statSync(path: string): FileInfo;
  function realPathSync(path: string): string;
  function readTextFileSync(path: string): string;
  function cwd(): string;

  const env: {
    /** @throws Deno.errors.NotCapable without `--allow-env` for this variable (or prompts, on a terminal). */
    get(key: string): string | undefined;
  };

  const permissions: {
    /** Whether a permission is granted, without prompting. */
    querySync(descriptor: { readonly name: "env"; readonly variable: string }): { readonly state: "granted" | "denied" | "prompt" };
  };

  const build: {
    readonly os: string;
    readonly arch: string;
  };
}

declare function addEventListener(type: "unload", listener: () => void): void;
