// The browser side of a connection, for multiplexer tests: records what the relay sends it.
import type { JsonRpcMessage } from "@codex-rpc/core";
import type { RelayConnection, RelayMultiplexer, RelayPeer } from "../../src/index.js";

export interface FakePeer extends RelayPeer {
  readonly sent: Record<string, any>[];
  closedWith?: { code: number; reason: string };
}

export function fakePeer(): FakePeer {
  const peer: FakePeer = {
    sent: [],
    send: (message: JsonRpcMessage) => void peer.sent.push(message as Record<string, any>),
    close: (code, reason) => void (peer.closedWith = { code, reason }),
  };
  return peer;
}

/** Lets the FakeAppServer's answers arrive. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A page attached to `mux` that has sent its `initialize` (with `params`). */
export function openPage(mux: RelayMultiplexer, params: unknown = {}): { peer: FakePeer; connection: RelayConnection } {
  const peer = fakePeer();
  const connection = mux.attach(peer);
  connection.receive({ id: 0, method: "initialize", params });
  return { peer, connection };
}
