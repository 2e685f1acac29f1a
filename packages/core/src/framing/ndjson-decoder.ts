import type { JsonRpcMessage } from "./json-rpc-message.js";
import { diagnosticExcerpt as excerptOf } from "../util/diagnostic-excerpt.js";
import type { TransportDiagnostic } from "./transport-diagnostic.js";

const LF = 0x0a;
const CR = 0x0d;

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
  /**
   * The source never writes to a chunk after pushing it (a Node pipe or socket hands out a new
   * Buffer per read; a stream that reuses its buffers does not qualify): the decoder may then keep
   * views of the chunks a long line spans instead of copies. Copying them costs as much again as the line
   * itself: every copy of a large line lands in memory the process has not touched yet. Default
   * false: the decoder copies what it keeps.
   */
  readonly retainChunks?: boolean;
}

/**
 * Splits a byte stream into newline-delimited JSON messages.
 *
 * Most of the protocol is ASCII, so a run of a chunk that is all ASCII is decoded once, split as a
 * string, and each line parsed on its own (one bad line never affects another). A run holding any
 * other byte takes the byte path: it is searched for `\n` and each complete line is decoded once,
 * so one non-ASCII line does not make its neighbours two-byte strings (slower to parse). The start
 * of a line that continues into the next chunk is kept as the ASCII text it already is, when its
 * chunk was decoded as text: a line that straddles two chunks then costs no copy beyond the one
 * `JSON.parse` makes to join the two pieces. Once a line spans a whole chunk it is kept as bytes, a
 * list of parts joined and decoded once when its newline arrives (joining on every chunk would be
 * quadratic in the line's length; one string piece per chunk would cost the garbage collector
 * more), a line longer than 2 MiB a block at a time; a character split across chunks or blocks
 * decodes whole. Bad lines are reported and
 * skipped; input never makes it throw.
 */
export class NdjsonDecoder {
  readonly #maxLineBytes: number;
  readonly #onMessage: (message: JsonRpcMessage) => void;
  readonly #onDiagnostic: (diagnostic: TransportDiagnostic) => void;
  readonly #decodeUtf8: (bytes: Uint8Array, start: number, end: number) => string;
  readonly #isAscii: ((bytes: Uint8Array, start: number, end: number) => boolean) | undefined;
  readonly #decodeAscii: (bytes: Uint8Array, start: number, end: number) => string;
  readonly #retainChunks: boolean;

  /**
   * The start of the current line, when it began in an earlier chunk: either the ASCII text it was
   * decoded to (the tail of one chunk) or, once it spans more, views or copies of its bytes. Never both.
   */
  #pendingText = "";
  #pending: Uint8Array[] = [];
  /** The bytes kept of the current line, in either form (ASCII text has one character per byte). */
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
    // ignoreBOM keeps a byte order mark, as Node's slicers do: a line is decoded alike on every runtime.
    const textDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
    this.#decodeUtf8 = options.decodeUtf8 ?? ((bytes, start, end) => textDecoder.decode(viewOf(bytes, start, end)));
    this.#decodeAscii = options.decodeAscii ?? this.#decodeUtf8;
    this.#retainChunks = options.retainChunks ?? false;
  }

  /**
   * Decodes the complete lines in `chunk` and keeps the rest for the next call. Unless
   * `retainChunks` was set, the decoder copies what it keeps, so the caller may reuse `chunk`. If a
   * callback throws, the rest of the chunk is still decoded and the first error is rethrown at the
   * end.
   */
  push(chunk: Uint8Array): void {
    const errors: Errors = { first: undefined };
    // A line kept as bytes ends on the byte path, whatever this chunk holds; a line kept as text
    // ends wherever this chunk is decoded.
    const start = this.#dropping || this.#pending.length > 0 ? this.#pushBytes(chunk, 0, true, errors) : 0;
    if (start < chunk.length) {
      const text = this.#asciiText(chunk, start);
      if (text !== undefined) this.#pushText(text, chunk, errors);
      else this.#pushBytes(chunk, start, false, errors);
    }
    if (errors.first) throw errors.first.error;
  }

  /** The input ended: decodes a final line that had no newline, and resets for reuse. */
  end(): void {
    if (this.#dropping) this.#finishDroppedLine();
    else if (this.#pendingBytes > 0) this.#endLine(EMPTY, 0, 0);
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

  /**
   * `text` is the end of `chunk`, all ASCII (so characters are bytes), and the line in progress, if
   * any, is kept as text: parses the complete lines and keeps the last one if it has no newline yet.
   */
  #pushText(text: string, chunk: Uint8Array, errors: Errors): void {
    const lines = text.split("\n");
    const last = lines.length - 1;
    if (last === 0 && this.#pendingBytes > 0) {
      // The kept line goes on past this chunk: from here it is kept as bytes.
      this.#keep(chunk, chunk.length - text.length, chunk.length);
      return;
    }
    for (let i = 0; i < last; i++) {
      try {
        if (i === 0 && this.#pendingBytes > 0) this.#textLine(this.#takePendingText() + lines[0]!);
        else this.#textLine(lines[i]!);
      } catch (error) {
        errors.first ??= { error };
      }
    }
    const tail = lines[last]!;
    if (tail.length > 0) this.#keepText(tail);
  }

  /** One complete line, its `\n` removed, `bytes` long in UTF-8 (its length when it is ASCII). */
  #textLine(line: string, bytes = line.length): void {
    const cr = line.length > 0 && line.charCodeAt(line.length - 1) === CR;
    const stop = cr ? bytes - 1 : bytes;
    if (stop > this.#maxLineBytes) this.#reportOversize(stop);
    else if (stop > 0) this.#parseLine(cr ? line.slice(0, line.length - 1) : line, stop);
  }

  /**
   * The byte path over `chunk[start..]`; with `firstLineOnly`, stops after the line in progress
   * ends. Returns where it stopped.
   */
  #pushBytes(chunk: Uint8Array, start: number, firstLineOnly: boolean, errors: Errors): number {
    const length = chunk.length;
    while (start < length) {
      const newline = chunk.indexOf(LF, start);
      const end = newline === -1 ? length : newline;
      if (newline === -1) {
        this.#keep(chunk, start, length);
        return length;
      }
      const lineStart = start;
      start = newline + 1;
      try {
        if (this.#dropping) {
          this.#drop(chunk, lineStart, end);
          this.#finishDroppedLine();
        } else if (this.#pendingBytes === 0) this.#decodeLine(chunk, lineStart, end);
        else this.#endLine(chunk, lineStart, end);
      } catch (error) {
        errors.first ??= { error };
      }
      if (firstLineOnly) return start;
    }
    return start;
  }

  /** `chunk[start, end)` starts or continues the line in progress: kept as bytes, or counted once it is too long. */
  #keep(chunk: Uint8Array, start: number, end: number): void {
    // room for the `\r` of a CRLF line at the limit
    if (!this.#dropping && this.#pendingBytes + (end - start) > this.#maxLineBytes + 1) this.#startDropping();
    if (this.#dropping) {
      this.#drop(chunk, start, end);
      return;
    }
    // ASCII text is its own bytes (Latin-1): a line that started as text goes on as bytes.
    if (this.#pendingText !== "") {
      this.#pending.push(asciiBytes(this.#pendingText));
      this.#pendingText = "";
    }
    this.#pending.push(this.#retainChunks ? viewOf(chunk, start, end) : copyOf(chunk, start, end));
    this.#pendingBytes += end - start;
  }

  /** `tail`, the ASCII end of a decoded chunk, starts the next line: kept as text, or counted once it is too long. */
  #keepText(tail: string): void {
    this.#pendingText = tail;
    this.#pendingBytes = tail.length;
    if (tail.length > this.#maxLineBytes + 1) this.#startDropping();
  }

  /** The kept text of the line in progress, which is no longer kept. */
  #takePendingText(): string {
    const text = this.#pendingText;
    this.#pendingText = "";
    this.#pendingBytes = 0;
    return text;
  }

  /** The current line is too long already: stop keeping it and only count what is left of it. */
  #startDropping(): void {
    this.#dropping = true;
    this.#droppedBytes = this.#pendingBytes;
    // A CRLF line may break between its `\r` and its `\n`: what was kept may end with the `\r`.
    const part = this.#pending[this.#pending.length - 1];
    this.#droppedEndsWithCr = part ? part[part.length - 1] === CR : this.#pendingText.charCodeAt(this.#pendingText.length - 1) === CR;
    this.#pendingText = "";
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #drop(chunk: Uint8Array, start: number, end: number): void {
    if (end === start) return;
    this.#droppedBytes += end - start;
    this.#droppedEndsWithCr = chunk[end - 1] === CR;
  }

  /** `chunk[start, end)` ends the line kept so far (as text or as bytes): parses it, or reports it too long. */
  #endLine(chunk: Uint8Array, start: number, end: number): void {
    if (this.#pendingBytes + (end - start) > this.#maxLineBytes + 1) {
      this.#startDropping();
      this.#drop(chunk, start, end);
      this.#finishDroppedLine();
    } else if (this.#pendingText !== "") {
      // The text is ASCII, so the bytes after it begin a character: each part decodes on its own.
      const bytes = this.#pendingBytes + (end - start);
      this.#textLine(this.#takePendingText() + (end > start ? this.#decodeUtf8(chunk, start, end) : ""), bytes);
    } else if (this.#pendingBytes + (end - start) > BLOCK_BYTES) {
      this.#decodeLongLine(chunk, start, end);
    } else {
      const line = this.#takePending(chunk, start, end);
      this.#decodeLine(line, 0, line.length);
    }
  }

  /**
   * The kept parts of a line longer than a block and `chunk[start, end)`, its end: decoded a block
   * at a time through one scratch block, the blocks' text joined once by `JSON.parse`'s input. Joining
   * the bytes first and decoding the whole put two copies of the line in memory the process had
   * not touched yet (writing it costs page faults); the block is rewritten in place, so only the
   * final join lands there.
   */
  #decodeLongLine(chunk: Uint8Array, start: number, end: number): void {
    const parts = this.#pending;
    parts.push(viewOf(chunk, start, end));
    this.#pending = [];
    let bytes = this.#pendingBytes + (end - start);
    this.#pendingBytes = 0;
    const last = parts[end > start ? parts.length - 1 : parts.length - 2]!;
    if (last[last.length - 1] === CR) bytes--;
    if (bytes > this.#maxLineBytes) {
      this.#reportOversize(bytes);
      return;
    }
    const block = new Uint8Array(BLOCK_BYTES);
    const texts: string[] = [];
    let filled = 0;
    let left = bytes;
    for (const part of parts) {
      const usable = Math.min(part.length, left);
      left -= usable;
      for (let offset = 0; offset < usable; ) {
        const n = Math.min(usable - offset, BLOCK_BYTES - filled);
        block.set(offset === 0 && n === part.length ? part : viewOf(part, offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled < BLOCK_BYTES) continue;
        // A character cut by the block's end goes on in the next block.
        const cut = characterBoundary(block, filled);
        texts.push(this.#decodeUtf8(block, 0, cut));
        block.copyWithin(0, cut, filled);
        filled -= cut;
      }
    }
    if (filled > 0) texts.push(this.#decodeUtf8(block, 0, filled));
    this.#parseLine(texts.join(""), bytes);
  }

  /** The kept start of the line and `chunk[start, end)`, its end, as one array. */
  #takePending(chunk: Uint8Array, start: number, end: number): Uint8Array {
    const parts = this.#pending;
    const total = this.#pendingBytes + (end - start);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (parts.length === 1 && end === start) return parts[0]!;
    const line = new Uint8Array(total);
    let offset = 0;
    for (const part of parts) {
      line.set(part, offset);
      offset += part.length;
    }
    line.set(viewOf(chunk, start, end), offset);
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

  /** One line's text (`bytes` long in UTF-8) → a message, or a diagnostic. */
  #parseLine(text: string, bytes: number): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() === "") return; // a blank line is a no-op, not garbage
      this.#onDiagnostic({
        kind: "invalid-json",
        message: `dropped a line of ${bytes} bytes that is not valid JSON`,
        excerpt: excerptOf(text),
        bytes,
      });
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
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

const EMPTY = new Uint8Array(0);

/**
 * A line longer than this is decoded in blocks of this size (see #decodeLongLine). Below glibc's
 * largest mmap threshold (32 MiB) and large enough that each block's text is one string of its own
 * outside the young generation (which the garbage collector would copy).
 */
const BLOCK_BYTES = 2 * 1024 * 1024;

/**
 * Where `bytes[0, end)` can be cut without splitting a UTF-8 character: before the lead byte of a
 * sequence that is not complete by `end`, else at `end`. Bytes that are not valid UTF-8 are never
 * cut from what follows them, so each part decodes as the whole would have.
 */
function characterBoundary(bytes: Uint8Array, end: number): number {
  for (let i = end - 1; i >= 0 && i >= end - 4; i--) {
    const byte = bytes[i]!;
    if (byte < 0x80) return end;
    if (byte >= 0xc0) return i + (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2) > end ? i : end;
  }
  return end;
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

/** The bytes of ASCII `text`: its Latin-1 encoding, one byte per character. */
function asciiBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** A copy of `bytes[start, end)`: the caller may reuse its chunk, and a partial line should not keep it alive. */
function copyOf(bytes: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(viewOf(bytes, start, end));
}
