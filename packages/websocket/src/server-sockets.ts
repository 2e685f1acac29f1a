import { constructSocket } from "./construct-socket.js";
import { wsMaxPayloadFor } from "./message-size.js";
import type { SocketRuntime } from "./socket-runtime.js";
import { terminateSocket } from "./terminate-socket.js";
import { isWsConstructor, isWsSocket } from "./ws-socket.js";

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
  limitOf: (socket, maxMessageBytes) => (isWsSocket(socket) ? `over ${wsMaxPayloadFor(maxMessageBytes)} bytes (maxMessageBytes plus ws's margin)` : undefined),
  terminate: (socket) => void terminateSocket(socket),
};
