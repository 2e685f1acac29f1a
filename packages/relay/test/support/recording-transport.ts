import { Observable } from "rxjs";
import type { JsonRpcMessage, Transport } from "@codex-rpc/core";

/** Wraps a transport, recording every message sent to the app-server (`up`) and received from it (`down`). */
export function recordingTransport(transport: Transport, up: JsonRpcMessage[], down: JsonRpcMessage[] = []): Transport {
  return {
    messages$: new Observable<JsonRpcMessage>((subscriber) =>
      transport.messages$.subscribe({
        next: (message) => {
          down.push(message);
          subscriber.next(message);
        },
        complete: () => subscriber.complete(),
      }),
    ),
    diagnostics$: transport.diagnostics$,
    send: (message) => {
      up.push(message);
      return transport.send(message);
    },
    close: () => transport.close(),
    closed: transport.closed,
  };
}
