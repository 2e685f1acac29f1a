import type { JsonRpcMessage } from "./json-rpc-message.js";
import { diagnosticExcerpt as excerptOf } from "../util/diagnostic-excerpt.js";
import type { TransportDiagnostic } from "./transport-diagnostic.js";

const LF = 0x0a;
const CR = 0x0d;

const encoder = new TextEncoder();

/** The first error a callback threw while a chunk was decoded: rethrown once the chunk is done. */
interface Errors {
  first: { error: unknown } | undefined;
}

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
  /**
   * Decodes `bytes[start, end)` that `isAscii` has just found to be all ASCII (Node: a Latin-1
   * copy, `Buffer.prototype.latin1Slice`). Without it, `decodeUtf8` is used.
   */
  readonly decodeAscii?: (bytes: Uint8Array, start: number, end: number) => string;
}

/**
 * Splits a byte stream into newline-delimited JSON messages.
 *
 * Most of the protocol is ASCII, so a chunk that is all ASCII is decoded once, split as a string,
 * and each line parsed on its own (one bad line never affects another); the start of a line that
 * continues into the next chunk is kept as text. A chunk holding any other byte takes the byte
 * path: it is searched for `\n` and each complete line is decoded once, so a multi-byte character
 * split across chunks needs no special care and one non-ASCII line does not make its neighbours
 * two-byte strings (slower to parse). A partial line is kept as a list of parts and joined once
 * when its newline arrives: joining on every chunk would be quadratic in the line's length. Bad
 * lines are reported and skipped; input never makes it throw.
 */
export class NdjsonDecoder {
  readonly #maxLineBytes: number;
  readonly #onMessage: (message: JsonRpcMessage) => void;
  readonly #onDiagnostic: (diagnostic: TransportDiagnostic) => void;
  readonly #decodeUtf8: (bytes: Uint8Array, start: number, end: number) => string;
  readonly #isAscii: ((bytes: Uint8Array, start: number, end: number) => boolean) | undefined;
  readonly #decodeAscii: (bytes: Uint8Array, start: number, end: number) => string;

  /** The start of the current line, when it began in an earlier chunk: as text while every byte
   * of it was ASCII, else as copied bytes. At most one of the two is non-empty. */
  #pendingText: string[] = [];
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** The current line is over the limit: its bytes are counted and dropped until its newline. */
  #dropping = false;
  #droppedBytes = 0;
  #droppedEndsWithCr = false;

  constructor(options: NdjsonDecoderOptions) {
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    // The same rule as WebSocket's maxMessageBytes: NaN would silently mean "no cap at all".
    if (typeof this.#maxLineBytes !== "number" || !(this.#maxLineBytes > 0)) {
      throw new RangeError(`maxLineBytes must be a positive number of bytes or Infinity, got ${String(options.maxLineBytes)}`);
    }
    this.#onMessage = options.onMessage;
    this.#onDiagnostic = options.onDiagnostic ?? (() => {});
    this.#isAscii = options.isAscii;
    const textDecoder = new TextDecoder();
    this.#decodeUtf8 = options.decodeUtf8 ?? ((bytes, start, end) => textDecoder.decode(viewOf(bytes, start, end)));
    this.#decodeAscii = options.decodeAscii ?? this.#decodeUtf8;
  }

  /**
   * Decodes the complete lines in `chunk` and keeps the rest for the next call. The decoder copies
   * what it keeps, so the caller may reuse `chunk`. If a callback throws, the rest of the chunk is
   * still decoded and the first error is rethrown at the end.
   */
  push(chunk: Uint8Array): void {
    const errors: Errors = { first: undefined };
    let start = 0;
    // A line whose start is held as bytes ends on the byte path, whatever this chunk holds.
    if (this.#pending.length > 0) start = this.#pushBytes(chunk, 0, true, errors);
    if (start < chunk.length) {
      const text = this.#asciiText(chunk, start);
      if (text !== undefined) this.#pushText(text, errors);
      else {
        if (this.#pendingText.length > 0) this.#pending = [encoder.encode(this.#pendingText.join(""))];
        this.#pendingText = [];
        this.#pushBytes(chunk, start, false, errors);
      }
    }
    if (errors.first) throw errors.first.error;
  }

  /** The input ended: decodes a final line that had no newline, and resets for reuse. */
  end(): void {
    if (this.#dropping) {
      this.#finishDroppedLine();
    } else if (this.#pendingText.length > 0) {
      const line = this.#pendingText.join("");
      this.#pendingText = [];
      this.#pendingBytes = 0;
      this.#textLine(line);
    } else if (this.#pendingBytes > 0) {
      const line = this.#takePending(new Uint8Array(0), 0, 0);
      this.#decodeLine(line, 0, line.length);
    }
  }

  /** `chunk[start..]` as text if it is all ASCII; the check decodes it when the runtime has no cheaper one. */
  #asciiText(chunk: Uint8Array, start: number): string | undefined {
    const end = chunk.length;
    if (this.#isAscii) return this.#isAscii(chunk, start, end) ? this.#decodeAscii(chunk, start, end) : undefined;
    // A chunk that ends inside a character would decode its first byte as U+FFFD, one character
    // for one byte, and pass the length test below.
    if (chunk[end - 1]! >= 0x80) return undefined;
    const text = this.#decodeUtf8(chunk, start, end);
    // UTF-16 length equals UTF-8 length when every byte is ASCII; an invalid byte decodes to one
    // U+FFFD, just as it would line by line.
    return text.length === end - start ? text : undefined;
  }

  /** An all-ASCII piece of the stream (so characters are bytes): finishes, parses and keeps lines. */
  #pushText(text: string, errors: Errors): void {
    const lines = text.split("\n");
    const last = lines.length - 1;
    let first = 0;
    if (this.#dropping || this.#pendingBytes > 0) {
      // The first piece ends the line in progress, or adds to it when it is also the last.
      first = 1;
      const piece = lines[0]!;
      if (!this.#dropping && this.#pendingBytes + piece.length > this.#maxLineBytes + 1) this.#startDropping();
      if (this.#dropping) {
        if (piece.length > 0) {
          this.#droppedBytes += piece.length;
          this.#droppedEndsWithCr = piece.charCodeAt(piece.length - 1) === CR;
        }
        if (last > 0) this.#guard(errors, () => this.#finishDroppedLine());
      } else if (last === 0) {
        this.#pendingText.push(piece);
        this.#pendingBytes += piece.length;
      } else {
        this.#pendingText.push(piece);
        const line = this.#pendingText.join("");
        this.#pendingText = [];
        this.#pendingBytes = 0;
        this.#guard(errors, () => this.#textLine(line));
      }
      if (last === 0) return;
    }
    for (let i = first; i < last; i++) {
      try {
        this.#textLine(lines[i]!);
      } catch (error) {
        errors.first ??= { error };
      }
    }
    // The start of a line that continues in the next chunk.
    const tail = lines[last]!;
    if (tail.length > this.#maxLineBytes + 1) {
      this.#startDropping();
      this.#droppedBytes = tail.length;
      this.#droppedEndsWithCr = tail.charCodeAt(tail.length - 1) === CR;
    } else if (tail.length > 0) {
      this.#pendingText.push(tail);
      this.#pendingBytes = tail.length;
    }
  }

  /** One complete ASCII line, its `\n` removed. */
  #textLine(line: string): void {
    const stop = line.length > 0 && line.charCodeAt(line.length - 1) === CR ? line.length - 1 : line.length;
    if (stop > this.#maxLineBytes) this.#reportOversize(stop);
    else if (stop > 0) this.#parseLine(stop === line.length ? line : line.slice(0, stop), stop);
  }

  /**
   * The byte path over `chunk[start..]`; with `firstLineOnly`, stops after the line in progress
   * ends. Returns where it stopped.
   */
  #pushBytes(chunk: Uint8Array, start: number, firstLineOnly: boolean, errors: Errors): number {
    const length = chunk.length;
    const limit = this.#maxLineBytes + 1; // room for the `\r` of a CRLF line at the limit
    while (start < length) {
      const newline = chunk.indexOf(LF, start);
      const end = newline === -1 ? length : newline;

      if (!this.#dropping && this.#pendingBytes + (end - start) > limit) this.#startDropping();

      if (this.#dropping) {
        if (end > start) {
          this.#droppedBytes += end - start;
          this.#droppedEndsWithCr = chunk[end - 1] === CR;
        }
        if (newline === -1) return length;
        start = newline + 1;
        this.#guard(errors, () => this.#finishDroppedLine());
        if (firstLineOnly) return start;
        continue;
      }

      if (newline === -1) {
        this.#pending.push(copyOf(chunk, start, length));
        this.#pendingBytes += length - start;
        return length;
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
        errors.first ??= { error };
      }
      if (firstLineOnly) return start;
    }
    return start;
  }

  /** The current line is too long already: stop keeping it and only count what is left of it. */
  #startDropping(): void {
    this.#dropping = true;
    this.#droppedBytes = this.#pendingBytes;
    this.#pending = [];
    this.#pendingText = [];
    this.#pendingBytes = 0;
  }

  #guard(errors: Errors, run: () => void): void {
    try {
      run();
    } catch (error) {
      errors.first ??= { error };
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
