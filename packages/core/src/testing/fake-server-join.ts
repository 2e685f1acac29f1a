import type { TransportCloseInfo } from "../errors/errors.js";
import type { JsonRpcMessage } from "../framing/json-rpc-message.js";
import { NdjsonDecoder } from "../framing/ndjson-decoder.js";
import { encodeNdjsonLine } from "../framing/ndjson-encoder.js";
import { createLoopbackTransportPair } from "../transport/loopback-transport.js";
import { createNdjsonTransport, type NdjsonInputSink } from "../transport/ndjson-transport.js";
import type { Transport } from "../transport/transport.js";

/** What the fake server hears from its client through a join. */
export interface JoinListener {
  message(message: JsonRpcMessage): void;
  /** A line the client sent that was not JSON (only a byte path has lines). */
  undecodable(excerpt: string): void;
}

/**
 * The server's end of the path between a fake app-server and its client. Once the path is closed
 * (by either side) sends are dropped, as a real server's writes to a closed pipe would be.
 */
export interface ServerJoin {
  /** The client's end: what the client connects with. */
  readonly transport: Transport;
  send(message: JsonRpcMessage): void;
  /** Writes bytes as they are, as one chunk. */
  sendRaw(bytes: Uint8Array): void;
  /** The server goes away: the client's transport closes with `info`. */
  end(info: TransportCloseInfo): void;
}

/** Message objects over the loopback pair: no bytes, no framing (the fastest path). */
export function loopbackJoin(listener: JoinListener): ServerJoin {
  const [client, server] = createLoopbackTransportPair();
  let closed = false;
  server.messages$.subscribe({ next: (message) => listener.message(message), complete: () => (closed = true) });
  return {
    transport: client,
    send: (message) => {
      if (!closed) void server.send(message).catch(() => {});
    },
    sendRaw: () => {
      throw new Error('FakeAppServer: sendRaw needs a byte path, `framing: "ndjson"`');
    },
    end: (info) => {
      if (closed) return;
      closed = true;
      // Our end closes as "closed"; the client's end with info (a crash's exit, say).
      void server.disconnect(info);
    },
  };
}

/** A real NDJSON byte path: the client's transport frames and decodes as it does over a pipe. */
export function ndjsonJoin(listener: JoinListener, maxLineBytes: number | undefined): ServerJoin {
  const decoder = new NdjsonDecoder({
    onMessage: (message) => listener.message(message),
    onDiagnostic: (diagnostic) => listener.undecodable(diagnostic.excerpt ?? diagnostic.message),
  });
  let sink: NdjsonInputSink | undefined;
  let endWith!: (info: TransportCloseInfo) => void;
  const ended = new Promise<TransportCloseInfo>((resolve) => (endWith = resolve));
  let closed = false;
  const end = (info: TransportCloseInfo): void => {
    if (closed) return;
    closed = true;
    sink?.end();
    endWith(info);
  };
  const transport = createNdjsonTransport({
    input: (input) => (sink = input),
    write: (bytes) => decoder.push(bytes),
    shutdown: async () => {
      end({ reason: "closed" });
      return ended;
    },
    ended,
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
  });
  return {
    transport,
    send: (message) => {
      if (!closed) sink?.data(encodeNdjsonLine(message));
    },
    sendRaw: (bytes) => {
      if (!closed) sink?.data(bytes);
    },
    end,
  };
}
