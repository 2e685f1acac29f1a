import type { StderrTail } from "./stderr-tail.js";

/** A running read of a process's stderr into a StderrTail (see `readStderrInto`). */
export interface StderrReader {
  /** Resolves (never rejects) when stderr has ended, failed, or been cancelled. */
  readonly done: Promise<void>;
  /** Stops reading: for a pipe a grandchild still holds open after the server exited. */
  cancel(): void;
}

/**
 * Reads a process's stderr (a web stream, as Deno and Bun give it) into `tail` as text, until it
 * ends. What was read stays in the tail when the read is cancelled or the pipe fails.
 */
export function readStderrInto(stderr: ReadableStream<Uint8Array>, tail: StderrTail): StderrReader {
  const reader = stderr.getReader();
  const decoder = new TextDecoder();
  const done = (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        tail.push(decoder.decode(chunk.value, { stream: true }));
      }
      tail.push(decoder.decode());
    } catch {
      // Cancelled after the exit, or the pipe failed: what was read is kept.
    }
  })();
  return { done, cancel: () => void reader.cancel().catch(() => {}) };
}
