import { REDACTION_CUT_MARGIN, redactedStart, redactSecrets } from "../util/redact-secrets.js";
import { stripAnsi } from "./strip-ansi.js";

/** A line longer than this is cut: stderr is for people, and a runaway line must not grow memory. */
const MAX_LINE_CHARS = 4000;

/**
 * Splits a process's stderr into lines, cleans each one (ANSI stripped, secrets redacted) and
 * keeps the last few for error messages. Blank lines are skipped. Plain strings in, so every
 * process adapter (Node stdio, Deno, Bun) shares it.
 */
export class StderrTail {
  readonly #capacity: number;
  readonly #onLine: (line: string) => void;
  readonly #lines: string[] = [];
  #partial = "";
  /** The current line passed MAX_LINE_CHARS: the rest of it is dropped. */
  #partialCut = false;

  constructor(capacity: number, onLine: (line: string) => void = () => {}) {
    this.#capacity = capacity;
    this.#onLine = onLine;
  }

  /** Adds decoded stderr text (a chunk may end mid-line). */
  push(text: string): void {
    let start = 0;
    for (;;) {
      const newline = text.indexOf("\n", start);
      if (newline === -1) {
        this.#appendPartial(text.slice(start));
        return;
      }
      this.#appendPartial(text.slice(start, newline));
      this.#completeLine();
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  flush(): void {
    if (this.#partial !== "") this.#completeLine();
  }

  /** The last lines, oldest first (a copy). */
  lines(): string[] {
    return this.#lines.slice();
  }

  #appendPartial(text: string): void {
    if (this.#partialCut || text === "") return;
    this.#partial += text;
    // Kept a little past the cut so a secret the cut falls inside is still seen whole (see redactedStart).
    if (this.#partial.length > MAX_LINE_CHARS + REDACTION_CUT_MARGIN) {
      this.#partial = this.#partial.slice(0, MAX_LINE_CHARS + REDACTION_CUT_MARGIN);
      this.#partialCut = true;
    }
  }

  #completeLine(): void {
    const clean = stripAnsi(this.#partial).trimEnd();
    const line = this.#partialCut ? `${redactedStart(clean, MAX_LINE_CHARS, clean.length - 1)} …[cut]` : redactSecrets(clean);
    this.#partial = "";
    this.#partialCut = false;
    if (line.trim() === "") return;
    this.#lines.push(line);
    if (this.#lines.length > this.#capacity) this.#lines.shift();
    this.#onLine(line);
  }
}
