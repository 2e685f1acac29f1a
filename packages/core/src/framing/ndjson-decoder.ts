import type { JsonRpcMessage } from "../json-rpc-message.js";
import { redactSecrets } from "../redact-secrets.js";
import type { TransportDiagnostic } from "../transport.js";

const LF = 0x0a;
const CR = 0x0d;
const EXCERPT_CHARS = 200;

export const DEFAULT_MAX_LINE_BYTES = 128 * 1024 * 1024;

export interface NdjsonDecoderOptions {
  /** The longest line accepted, in bytes, not counting its `\n` or `\r\n`. Default 128 MiB. */
  readonly maxLineBytes?: number;
  /** Called synchronously, in order, for every line that holds a JSON object. */
  readonly onMessage: (message: JsonRpcMessage) => void;
  /** Called for every line that is dropped: not JSON, not an object, or too long. */
  readonly onDiagnostic?: (diagnostic: TransportDiagnostic) => void;
  /**
   * Decodes `bytes[start, end)` as UTF-8. The default uses TextDecoder (every runtime has it); a
   * runtime with a faster primitive passes its own (Node and Bun: `Buffer.prototype.utf8Slice`,
   * which needs no view per line and is what makes short lines cheap).
   */
  readonly decodeUtf8?: (bytes: Uint8Array, start: number, end: number) => string;
  /**
   * Whether `bytes[start, end)` is all ASCII, if the runtime can tell cheaply (Node: `isAscii`).
   * Without it the decoder decodes a run first and looks at the result.
   */
  readonly isAscii?: (bytes: Uint8Array, start: number, end: number) => boolean;
}

/**
 * Splits a byte stream into newline-delimited JSON messages.
 *
 * Works on bytes, not strings: each chunk is searched for `\n` and each complete line is decoded
 * once, so a multi-byte UTF-8 character split across chunks needs no special care and ASCII-heavy
 * input never becomes a two-byte string. A partial line is kept as a list of copied slices and
 * joined once when its newline arrives (joining on every chunk would be quadratic in the line's
 * length). Bad lines are reported and skipped; input never makes it throw.
 */
export class NdjsonDecoder {
  readonly #maxLineBytes: number;
  readonly #onMessage: (message: JsonRpcMessage) => void;
  readonly #onDiagnostic: (diagnostic: TransportDiagnostic) => void;
  readonly #decodeUtf8: (bytes: Uint8Array, start: number, end: number) => string;
  readonly #isAscii: ((bytes: Uint8Array, start: number, end: number) => boolean) | undefined;

  /** The start of the current line, when it began in an earlier chunk. */
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** The current line is over the limit: its bytes are counted and dropped until its newline. */
  #dropping = false;
  #droppedBytes = 0;
  #droppedEndsWithCr = false;

  constructor(options: NdjsonDecoderOptions) {
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#onMessage = options.onMessage;
    this.#onDiagnostic = options.onDiagnostic ?? (() => {});
    this.#isAscii = options.isAscii;
    const textDecoder = new TextDecoder();
    this.#decodeUtf8 = options.decodeUtf8 ?? ((bytes, start, end) => textDecoder.decode(viewOf(bytes, start, end)));
  }

  /**
   * Decodes the complete lines in `chunk` and keeps the rest for the next call. The decoder copies
   * what it keeps, so the caller may reuse `chunk`. If a callback throws, the rest of the chunk is
   * still decoded and the first error is rethrown at the end.
   */
  push(chunk: Uint8Array): void {
    const length = chunk.length;
    const limit = this.#maxLineBytes + 1; // room for the `\r` of a CRLF line at the limit
    let callbackError: { error: unknown } | undefined;
    let start = 0;
    let lastNewline = -2; // looked up once, when first needed
    while (start < length) {
      if (this.#pendingBytes === 0 && !this.#dropping) {
        if (lastNewline === -2) lastNewline = chunk.lastIndexOf(LF);
        if (lastNewline > start && lastNewline - start <= this.#maxLineBytes) {
          // Every complete line left in the chunk, decoded in one call and split as a string: one
          // decode per chunk instead of one per line (short lines are mostly call overhead). Each
          // line is still parsed on its own, so one bad line never affects another. A run with a
          // non-ASCII byte would decode to a two-byte string and make every line of it slower to
          // parse: such a run is decoded line by line, so its ASCII lines stay one-byte strings.
          const error = this.#decodeRun(chunk, start, lastNewline);
          if (error) callbackError ??= error;
          start = lastNewline + 1;
          continue;
        }
      }
      const newline = chunk.indexOf(LF, start);
      const end = newline === -1 ? length : newline;

      if (!this.#dropping && this.#pendingBytes + (end - start) > limit) {
        // Too long already: stop buffering it and only count what is left of it.
        this.#dropping = true;
        this.#droppedBytes = this.#pendingBytes;
        this.#pending = [];
        this.#pendingBytes = 0;
      }

      if (this.#dropping) {
        if (end > start) {
          this.#droppedBytes += end - start;
          this.#droppedEndsWithCr = chunk[end - 1] === CR;
        }
        if (newline === -1) break;
        start = newline + 1;
        try {
          this.#finishDroppedLine();
        } catch (error) {
          callbackError ??= { error };
        }
        continue;
      }

      if (newline === -1) {
        this.#pending.push(copyOf(chunk, start, length));
        this.#pendingBytes += length - start;
        break;
      }

      const lineStart = start;
      start = newline + 1;
      try {
        if (this.#pendingBytes === 0) this.#decodeLine(chunk, lineStart, end);
        else {
          const line = this.#takePending(chunk, lineStart, end);
          this.#decodeLine(line, 0, line.length);
        }
      } catch (error) {
        callbackError ??= { error };
      }
    }
    if (callbackError) throw callbackError.error;
  }

  /** The input ended: decodes a final line that had no newline, and resets for reuse. */
  end(): void {
    if (this.#dropping) {
      this.#finishDroppedLine();
    } else if (this.#pendingBytes > 0) {
      const line = this.#takePending(new Uint8Array(0), 0, 0);
      this.#decodeLine(line, 0, line.length);
    }
  }

  #takePending(chunk: Uint8Array, start: number, end: number): Uint8Array {
    const line = new Uint8Array(this.#pendingBytes + (end - start));
    let offset = 0;
    for (const part of this.#pending) {
      line.set(part, offset);
      offset += part.length;
    }
    line.set(viewOf(chunk, start, end), offset);
    this.#pending = [];
    this.#pendingBytes = 0;
    return line;
  }

  #finishDroppedLine(): void {
    const bytes = this.#droppedBytes - (this.#droppedEndsWithCr ? 1 : 0);
    this.#dropping = false;
    this.#droppedBytes = 0;
    this.#droppedEndsWithCr = false;
    this.#reportOversize(bytes);
  }

  /** Decodes the complete lines of `chunk[start, end)`; returns the first callback error. */
  #decodeRun(chunk: Uint8Array, start: number, end: number): { error: unknown } | undefined {
    if (this.#isAscii?.(chunk, start, end) === false) return this.#decodeEachLine(chunk, start, end);
    const text = this.#decodeUtf8(chunk, start, end);
    // UTF-16 length equals UTF-8 length exactly when every byte is ASCII.
    return text.length === end - start ? this.#decodeLines(text) : this.#decodeEachLine(chunk, start, end);
  }

  /** Decodes and parses each line of `chunk[start, end)` on its own; returns the first callback error. */
  #decodeEachLine(chunk: Uint8Array, start: number, end: number): { error: unknown } | undefined {
    let callbackError: { error: unknown } | undefined;
    while (start <= end) {
      const newline = chunk.indexOf(LF, start);
      const stop = newline === -1 || newline > end ? end : newline;
      try {
        this.#decodeLine(chunk, start, stop);
      } catch (error) {
        callbackError ??= { error };
      }
      start = stop + 1;
    }
    return callbackError;
  }

  /** Parses each `\n`-separated line of `text` (none longer than the limit); returns the first callback error. */
  #decodeLines(text: string): { error: unknown } | undefined {
    let callbackError: { error: unknown } | undefined;
    let start = 0;
    for (;;) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      const stop = end > start && text.charCodeAt(end - 1) === CR ? end - 1 : end;
      if (stop > start) {
        try {
          this.#parseLine(text.slice(start, stop), undefined);
        } catch (error) {
          callbackError ??= { error };
        }
      }
      if (newline === -1) return callbackError;
      start = newline + 1;
    }
  }

  #decodeLine(chunk: Uint8Array, start: number, end: number): void {
    const stop = end > start && chunk[end - 1] === CR ? end - 1 : end;
    const bytes = stop - start;
    if (bytes > this.#maxLineBytes) {
      this.#reportOversize(bytes);
      return;
    }
    if (bytes === 0) return;
    this.#parseLine(this.#decodeUtf8(chunk, start, stop), bytes);
  }

  /** One line's text → a message, or a diagnostic. `bytes` is counted only when a diagnostic needs it. */
  #parseLine(text: string, knownBytes: number | undefined): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() === "") return; // a blank line is a no-op, not garbage
      const bytes = knownBytes ?? utf8Length(text);
      this.#onDiagnostic({
        kind: "invalid-json",
        message: `dropped a line of ${bytes} bytes that is not valid JSON`,
        excerpt: excerptOf(text),
        bytes,
      });
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      const bytes = knownBytes ?? utf8Length(text);
      this.#onDiagnostic({
        kind: "not-an-object",
        message: `dropped a line of ${bytes} bytes that is JSON but not an object (${Array.isArray(value) ? "array" : value === null ? "null" : typeof value})`,
        excerpt: excerptOf(text),
        bytes,
      });
      return;
    }
    this.#onMessage(value as JsonRpcMessage);
  }

  #reportOversize(bytes: number): void {
    this.#onDiagnostic({
      kind: "oversize-line",
      message: `dropped a line of ${bytes} bytes: longer than the limit of ${this.#maxLineBytes} bytes`,
      bytes,
    });
  }
}

/** The start of a bad line, redacted: it ends up in logs. Redacts a little more than it keeps so a
 * secret that straddles the cut is still recognised. */
function excerptOf(text: string): string {
  return redactSecrets(text.slice(0, EXCERPT_CHARS * 2)).slice(0, EXCERPT_CHARS);
}

const encoder = new TextEncoder();

/** The UTF-8 size of a line that was decoded as part of a larger run (diagnostics only). */
function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/**
 * A view of `bytes[start, end)` made with the Uint8Array constructor. `subarray` and `slice` build
 * their result with the species constructor, which for a Node Buffer is the deprecated
 * `Buffer(arrayBuffer, …)` path: it inspects the call stack (for a deprecation warning) on each of
 * its first 10 000 calls, which made every chunk boundary cost microseconds.
 */
function viewOf(bytes: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset + start, end - start);
}

/** A copy of `bytes[start, end)`: the caller may reuse its chunk, and a partial line should not keep it alive. */
function copyOf(bytes: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(viewOf(bytes, start, end));
}
