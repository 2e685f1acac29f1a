// The Bun API this package uses, declared by hand (a subset of `bun-types`, same names and
// shapes): only `Bun.spawn`. Bun implements Node's `node:fs`, `node:path` and `process`, which
// are typed by @types/node. Declarations only, and not shipped: the public API mentions no Bun type.

declare namespace Bun {
  interface SpawnOptions {
    /** The command and its arguments. */
    cmd: string[];
    cwd?: string;
    /** The child's entire environment (Bun does not merge it with this process's). Default: `process.env`. */
    env?: Record<string, string>;
    stdin: "pipe";
    stdout: "pipe";
    stderr: "pipe";
    windowsHide?: boolean;
  }

  /** A child's stdin: buffered writes, then `flush()` (a promise when the pipe is full), `end()` to close. */
  interface FileSink {
    write(chunk: Uint8Array | string): number;
    flush(): number | Promise<number>;
    end(error?: Error): number | Promise<number>;
  }

  interface Subprocess {
    readonly pid: number;
    readonly stdin: FileSink;
    readonly stdout: ReadableStream<Uint8Array>;
    readonly stderr: ReadableStream<Uint8Array>;
    /** Resolves with the exit code (128 + n after signal n) once the process has exited. */
    readonly exited: Promise<number>;
    readonly exitCode: number | null;
    readonly signalCode: string | null;
    kill(signal?: number | string): void;
  }

  /** @throws Error with `code` ENOENT (command or cwd missing), EACCES, ENOEXEC when the process cannot start. */
  function spawn(options: SpawnOptions): Subprocess;
}
