import { isAscii } from "node:buffer";
import type { NdjsonDecoderOptions } from "@codex-rpc/core/transport";

/**
 * Node's own slicers for core's NDJSON decoder, with no view object per line: a run known to be
 * ASCII (Node's `isAscii` checks 64 KiB in well under a microsecond) is copied as Latin-1, which
 * skips UTF-8 decoding; so is a long line that turns out to be ASCII. For a short line the check
 * would cost more than it saves. What @codex-rpc/stdio uses; pass it to `createNdjsonTransport`
 * or `NdjsonDecoder` for any other Node byte source.
 */
export const nodeDecoding: Pick<NdjsonDecoderOptions, "decodeUtf8" | "isAscii" | "decodeAscii"> = {
  decodeUtf8: (bytes, start, end) =>
    end - start >= LONG_RUN_BYTES && isAsciiRange(bytes, start, end) ? latin1Slice.call(bytes, start, end) : utf8Slice.call(bytes, start, end),
  isAscii: isAsciiRange,
  decodeAscii: (bytes, start, end) => latin1Slice.call(bytes, start, end),
};

const utf8Slice = (Buffer.prototype as unknown as { utf8Slice(this: Uint8Array, start: number, end: number): string }).utf8Slice;
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice(this: Uint8Array, start: number, end: number): string }).latin1Slice;
const LONG_RUN_BYTES = 4096;

function isAsciiRange(bytes: Uint8Array, start: number, end: number): boolean {
  return isAscii(new Uint8Array(bytes.buffer, bytes.byteOffset + start, end - start));
}
