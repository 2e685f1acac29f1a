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
 * two-byte string, and so would be any string it is joined into. So when 64 pieces are joined, the
 * wide ones among them are taken out and kept apart (joined with their like), with where each goes
 * in the text (two numbers in a typed array): one `’` in a run neither doubles the memory of the 63
 * pieces around it nor splits their run, and runs go on being joined. Only runs that hold a wide
 * character are looked at piece by piece.
 */
export class StreamedText {
  /** The one-byte text (and large pieces, whatever their width), in order. */
  #parts: string[] = [];
  /** Characters in `#parts`. */
  #length = 0;
  /** How many of the last parts are pieces not yet joined, and their length. */
  #loose = 0;
  #looseLength = 0;
  /** How many of the parts before the loose ones are joined runs of small one-byte pieces. */
  #runs = 0;
  /** The wide pieces taken out of runs, in order; every JOIN_EVERY joined. */
  #wide: string[] = [];
  #wideLoose = 0;
  /** For each wide piece: where it goes (characters of `#parts` before it) and its length. */
  #at: Uint32Array | undefined;
  #atCount = 0;
  /** Characters in the wide pieces: `length` is asked once per run of deltas, and runs of two items' deltas can alternate. */
  #wideLength = 0;

  get isEmpty(): boolean {
    return this.#parts.length === 0 && this.#atCount === 0;
  }

  /** How many characters `take()` would return. */
  get length(): number {
    return this.#length + this.#wideLength;
  }

  append(piece: string): void {
    this.#parts.push(piece);
    this.#length += piece.length;
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
    const parts = this.#parts;
    const narrow = parts.length === 1 ? parts[0]! : parts.join("");
    const text = this.#atCount === 0 ? narrow : this.#interleave(narrow);
    this.#parts = [];
    this.#length = 0;
    this.#loose = 0;
    this.#looseLength = 0;
    this.#runs = 0;
    this.#wide = [];
    this.#wideLoose = 0;
    this.#at = undefined;
    this.#atCount = 0;
    this.#wideLength = 0;
    return text;
  }

  /** `narrow` with the wide pieces put back where they were. */
  #interleave(narrow: string): string {
    const wide = this.#wide.join("");
    const at = this.#at!;
    const out: string[] = [];
    let from = 0;
    let wideFrom = 0;
    for (let i = 0; i < this.#atCount; i++) {
      const position = at[2 * i]!;
      const length = at[2 * i + 1]!;
      out.push(narrow.slice(from, position), wide.slice(wideFrom, wideFrom + length));
      from = position;
      wideFrom += length;
    }
    out.push(narrow.slice(from));
    return out.join("");
  }

  /**
   * Joins the loose pieces into one string, the wide ones among them taken out and kept apart.
   * Returns whether they became one one-byte string.
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
    const narrow: string[] = [];
    let position = this.#length - this.#looseLength;
    for (const piece of pieces) {
      if (WIDE.test(piece)) {
        this.#keepWide(piece, position);
        this.#length -= piece.length;
      } else {
        narrow.push(piece);
        position += piece.length;
      }
    }
    if (narrow.length === 0) return false;
    parts.push(narrow.join(""));
    return true;
  }

  #keepWide(piece: string, position: number): void {
    let at = this.#at;
    if (at === undefined || at.length < 2 * (this.#atCount + 1)) {
      const grown = new Uint32Array(Math.max(64, 2 * (at?.length ?? 0)));
      if (at) grown.set(at);
      this.#at = at = grown;
    }
    at[2 * this.#atCount] = position;
    at[2 * this.#atCount + 1] = piece.length;
    this.#atCount++;
    this.#wideLength += piece.length;
    const wide = this.#wide;
    wide.push(piece);
    if (++this.#wideLoose === JOIN_EVERY) {
      const start = wide.length - JOIN_EVERY;
      wide[start] = wide.slice(start).join("");
      wide.length = start + 1;
      this.#wideLoose = 0;
    }
  }

  #joinLast(count: number): void {
    const parts = this.#parts;
    const start = parts.length - count;
    parts[start] = parts.slice(start).join("");
    parts.length = start + 1;
  }
}
