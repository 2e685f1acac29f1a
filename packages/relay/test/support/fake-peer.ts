// The browser side of a connection, for multiplexer tests: records what the relay sends it.
import type { JsonRpcMessage } from "@codex-rpc/core";
import type { RelayPeer } from "../../src/index.js";

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
