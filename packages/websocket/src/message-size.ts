import { DEFAULT_MAX_LINE_BYTES } from "@codex-rpc/core/transport";

/** The default `maxMessageBytes`: the same as the stdio transport's longest line (128 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = DEFAULT_MAX_LINE_BYTES;

/** The least room `ws` gets above the cap, so a small cap does not turn a slightly long frame into a lost connection. */
const WS_MIN_MARGIN_BYTES = 16 * 1024 * 1024;

/** @throws RangeError unless `bytes` is a positive number or Infinity. */
export function checkMaxMessageBytes(bytes: number): void {
  if (typeof bytes !== "number" || !(bytes > 0)) throw new RangeError(`maxMessageBytes must be a positive number of bytes or Infinity, got ${String(bytes)}`);
}

/**
 * The `maxPayload` handed to `ws`, which holds a whole message in memory before it hands it over
 * and closes the connection (1009) for anything larger. Frames between the cap and this are
 * dropped like on any runtime; the margin (the cap again, at least 16 MiB) bounds the memory a
 * frame nobody wants can take. 0 is ws's "no limit".
 */
export function wsMaxPayloadFor(maxMessageBytes: number): number {
  return maxMessageBytes === Infinity ? 0 : maxMessageBytes + Math.max(maxMessageBytes, WS_MIN_MARGIN_BYTES);
}

/**
 * The UTF-8 size of `text` if it is over `limit`, else undefined. Cheap for the usual case: a
 * UTF-16 unit is 1 to 3 UTF-8 bytes, so a text of at most limit/3 units is under it without
 * counting, and only a longer one is counted.
 */
export function utf8BytesOver(text: string, limit: number): number | undefined {
  if (text.length <= limit / 3) return undefined;
  const bytes = utf8Length(text);
  return bytes > limit ? bytes : undefined;
}

/** Counts without encoding: U+0000–007F is 1 byte, –07FF 2, the rest of the BMP 3, a surrogate pair 4. */
export function utf8Length(text: string): number {
  const length = text.length;
  let bytes = length;
  for (let i = 0; i < length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // two units, four bytes
      i++;
    } else bytes += 2; // three bytes (a lone surrogate is encoded as U+FFFD, also three)
  }
  return bytes;
}
