import { redactSecrets } from "@codex-rpc/core/transport";
import { constructSocket } from "./construct-socket.js";
import { wsMaxPayloadFor } from "./message-size.js";
import type { SocketRuntime } from "./socket-runtime.js";
import { terminateSocket } from "./terminate-socket.js";
import { isWsConstructor, isWsSocket } from "./ws-socket.js";

/** What each runtime says when a message is over its own limit: ws, Node 22 (undici), Deno, Bun. */
const MESSAGE_TOO_BIG = /max payload size exceeded|payload size exceeds|frame too large|message too big/i;

/** The `ws` package and the runtimes' own WebSockets (Node 22, Deno, Bun): see socket-runtime. */
export const SERVER_SOCKETS: SocketRuntime = {
  construct: (Socket, url, init, maxMessageBytes) =>
    constructSocket(Socket, url, {
      ...init,
      // ws closes the connection for a message over its maxPayload (default 100 MiB): room above our cap.
      ...(isWsConstructor(Socket) ? { maxPayload: wsMaxPayloadFor(maxMessageBytes) } : {}),
    }),
  listen(socket, maxMessageBytes, sink) {
    if (!isWsSocket(socket)) return false;
    // ws hands over a text frame's bytes: an oversize one is measured and dropped without ever becoming a string.
    socket.on("message", (data, isBinary) => {
      if (!sink.arrived()) return;
      if (isBinary) return sink.binary();
      if (data.length > maxMessageBytes) return sink.oversize(data.length);
      let text: string;
      try {
        text = data.toString();
      } catch {
        return sink.oversize(data.length, "longer than a string can be on this runtime");
      }
      sink.text(text);
    });
    return true;
  },
  tooBig(socket, event, detail, maxMessageBytes) {
    const code = (event.error as { code?: unknown } | undefined)?.code;
    const tooBig = code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH" || code === "WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH" || MESSAGE_TOO_BIG.test(detail ?? "");
    if (!tooBig) return undefined;
    const limit = isWsSocket(socket)
      ? `over ${wsMaxPayloadFor(maxMessageBytes)} bytes (maxMessageBytes plus ws's margin)`
      : "over this runtime's WebSocket limit (Node 22 and Bun: 128 MiB, Deno: 64 MiB)";
    return new Error(
      `the server sent a message ${limit}, which the WebSocket does not hold in memory: it closed the connection (${redactSecrets(detail ?? "message too big")}); a message over maxMessageBytes but under that limit is dropped instead`,
      { cause: event.error },
    );
  },
  terminate: (socket) => void terminateSocket(socket),
};
