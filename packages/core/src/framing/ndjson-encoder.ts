import type { JsonRpcMessage } from "./json-rpc-message.js";
import { encodeJsonText } from "./json-text.js";

const textEncoder = new TextEncoder();

/**
 * One message as one NDJSON line. JSON.stringify escapes control characters inside strings, so
 * the only newline in the output is the terminator; a lone surrogate goes as U+FFFD (see
 * encodeJsonText). Throws what JSON.stringify throws (a cycle, a BigInt).
 */
export function encodeNdjsonLine(message: JsonRpcMessage): Uint8Array {
  return textEncoder.encode(`${encodeJsonText(message)}\n`);
}
