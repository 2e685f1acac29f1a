/** Pieces are joined once this many are loose… */
const JOIN_EVERY = 64;
/**
 * …if they are small: below this average length a string's own header (16–20 bytes) and its array
 * slot are a real share of what it keeps. Larger pieces stay as they are: joining them would copy
 * far more text than it saves.
 */
const JOIN_BELOW_AVERAGE_LENGTH = 256;

/**
 * Text that grows by many small pieces (an item's streamed deltas), kept as a few large strings so
 * the heap holds the text and hardly anything else. A million 32-byte deltas kept one string each
 * cost 56 bytes apiece (header and array slot) and a million objects for the GC to copy and trace;
 * here every 64 small pieces are joined as they arrive, and every 64 such runs again, so they end
 * in a few hundred strings of about 128 KB. Each character is copied at most twice more, in runs
 * that are still young, and the pieces themselves die young.
 */
export class StreamedText {
  #parts: string[] = [];
  /** How many of the last parts are pieces not yet joined, and their length. */
  #loose = 0;
  #looseLength = 0;
  /** How many of the parts before the loose ones are joined runs of small pieces. */
  #runs = 0;

  get isEmpty(): boolean {
    return this.#parts.length === 0;
  }

  append(piece: string): void {
    this.#parts.push(piece);
    this.#loose++;
    this.#looseLength += piece.length;
    if (this.#loose < JOIN_EVERY) return;
    if (this.#looseLength < JOIN_EVERY * JOIN_BELOW_AVERAGE_LENGTH) {
      this.#joinLast(JOIN_EVERY);
      if (++this.#runs === JOIN_EVERY) {
        this.#joinLast(JOIN_EVERY);
        this.#runs = 0;
      }
    } else {
      this.#runs = 0; // large pieces end a run of joined ones
    }
    this.#loose = 0;
    this.#looseLength = 0;
  }

  /** All the text so far, and starts over empty. */
  take(): string {
    const text = this.#parts.length === 1 ? this.#parts[0]! : this.#parts.join("");
    this.#parts = [];
    this.#loose = 0;
    this.#looseLength = 0;
    this.#runs = 0;
    return text;
  }

  #joinLast(count: number): void {
    const parts = this.#parts;
    const start = parts.length - count;
    parts[start] = parts.slice(start).join("");
    parts.length = start + 1;
  }
}
