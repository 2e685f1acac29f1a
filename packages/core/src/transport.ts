// @codex-rpc/core/transport: what an adapter author needs to write a Transport: the contract, the
// NDJSON framing and transport, the inbox that holds messages for the one subscriber, and the
// helpers every adapter uses (bounded excerpts, redaction, timers). Errors are in `@codex-rpc/core`.
export type { Transport, TransportDiagnostic } from "./transport/transport.js";
export type { TransportFactory } from "./client/reconnect-policy.js";
export type { TransportCloseInfo } from "./errors/errors.js";
export type {
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcSuccess,
  JsonRpcId,
} from "./framing/json-rpc-message.js";
export { NdjsonDecoder, DEFAULT_MAX_LINE_BYTES, type NdjsonDecoderOptions } from "./framing/ndjson-decoder.js";
export { encodeNdjsonLine } from "./framing/ndjson-encoder.js";
export { encodeJsonText } from "./framing/json-text.js";
export { diagnosticExcerpt } from "./util/diagnostic-excerpt.js";
export {
  createNdjsonTransport,
  type NdjsonInputSink,
  type NdjsonTransport,
  type NdjsonTransportOptions,
} from "./transport/ndjson-transport.js";
export { MessageInbox } from "./transport/message-inbox.js";
export { createLoopbackTransportPair, type LoopbackTransport } from "./transport/loopback-transport.js";
export { streamWriter } from "./transport/stream-writer.js";
// `await using` on a transport: the runtime's Symbol.asyncDispose, or the registered fallback.
export { asyncDisposeSymbol } from "./util/dispose-symbols.js";
export { redactSecrets } from "./util/redact-secrets.js";
export { settlesWithin } from "./util/settles-within.js";
export { startTimer, checkTimeout, MAX_TIMER_DELAY_MS, type CancelTimer } from "./util/long-timer.js";
