/** Pieces are joined once this many are loose… */
const JOIN_EVERY = 64;
/**
 * …if they are small: below this average length a string's own header (16–20 bytes) and its array
 * slot are a real share of what it keeps. Larger pieces stay as they are: joining them would copy
 * far more text than it saves.
 */
const JOIN_BELOW_AVERAGE_LENGTH = 256;
/** A character JavaScript engines cannot keep in one byte: a string holding one takes two per character. */
const WIDE = /[\u0100-\uffff]/;

/**
 * Text that grows by many small pieces (an item's streamed deltas), kept as a few large strings so
 * the heap holds the text and hardly anything else. A million 32-byte deltas kept one string each
 * cost 56 bytes apiece (header and array slot) and a million objects for the GC to copy and trace;
 * here every 64 small pieces are joined as they arrive, and every 64 such runs again, so they end
 * in a few hundred strings of about 128 KB. Each character is copied at most twice more, in runs
 * that are still young, and the pieces themselves die young.
 *
 * A piece with a character above U+00FF (a curly quote, an em dash, any non-Latin script) is a
 * two-byte string, and so would be any string it is joined into: such pieces are joined only with
 * their like, so one `’` in a run does not double the memory of the 63 pieces around it, and runs
 * that hold them are not joined again.
 */
export class StreamedText {
  #parts: string[] = [];
  /** How many of the last parts are pieces not yet joined, and their length. */
  #loose = 0;
  #looseLength = 0;
  /** How many of the parts before the loose ones are joined runs of small one-byte pieces. */
  #runs = 0;

  get isEmpty(): boolean {
    return this.#parts.length === 0;
  }

  append(piece: string): void {
    this.#parts.push(piece);
    this.#loose++;
    this.#looseLength += piece.length;
    if (this.#loose < JOIN_EVERY) return;
    if (this.#looseLength >= JOIN_EVERY * JOIN_BELOW_AVERAGE_LENGTH)
      this.#runs = 0; // large pieces end a run of joined ones
    else if (this.#joinLoose()) {
      if (++this.#runs === JOIN_EVERY) {
        this.#joinLast(JOIN_EVERY);
        this.#runs = 0;
      }
    } else this.#runs = 0;
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

  /**
   * Joins the loose pieces into one string; or, when some are wide, each stretch of pieces of one
   * width into one string. Returns whether they became one one-byte string.
   */
  #joinLoose(): boolean {
    const parts = this.#parts;
    const start = parts.length - this.#loose;
    const joined = parts.slice(start).join("");
    if (!WIDE.test(joined)) {
      parts[start] = joined;
      parts.length = start + 1;
      return true;
    }
    const pieces = parts.splice(start);
    let stretch: string[] = [];
    let wide = false;
    for (const piece of pieces) {
      const pieceWide = WIDE.test(piece);
      if (stretch.length > 0 && pieceWide !== wide) {
        parts.push(stretch.join(""));
        stretch = [];
      }
      stretch.push(piece);
      wide = pieceWide;
    }
    parts.push(stretch.join(""));
    return false;
  }

  #joinLast(count: number): void {
    const parts = this.#parts;
    const start = parts.length - count;
    parts[start] = parts.slice(start).join("");
    parts.length = start + 1;
  }
}
