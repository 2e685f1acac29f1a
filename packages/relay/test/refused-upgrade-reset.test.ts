// A refused upgrade (no token, wrong token, foreign origin…) is answered on the raw socket that
// Node hands the `upgrade` event, which has no 'error' listener any more. A client that resets the
// connection right after its request makes the answer's write fail (ECONNRESET, EPIPE): unheard,
// that error is an uncaught exception that ends the relay's process — reachable by any local
// process, without a token.
import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { type RelayHandle, startRelay } from "../src/index.js";

let relay: RelayHandle | undefined;
const escaped: unknown[] = [];
const onUncaught = (error: unknown) => void escaped.push(error);
afterEach(async () => {
  process.off("uncaughtException", onUncaught);
  await relay?.close();
});

const upgrade = [
  "GET / HTTP/1.1",
  "Host: 127.0.0.1",
  "Upgrade: websocket",
  "Connection: Upgrade",
  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
  "Sec-WebSocket-Version: 13",
  "Sec-WebSocket-Protocol: codex-rpc.token.wrong",
  "",
  "",
].join("\r\n");

it("clients that reset right after a refused upgrade: no uncaught exception, and the relay still answers", async () => {
  process.on("uncaughtException", onUncaught);
  relay = await startRelay({ upstream: { transport: new FakeAppServer().transport } });
  const port = relay.port;
  for (let attempt = 0; attempt < 100 && escaped.length === 0; attempt++) {
    await new Promise<void>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(upgrade);
        setImmediate(() => (socket.resetAndDestroy(), resolve()));
      });
      socket.on("error", () => resolve());
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(escaped).toEqual([]);
  expect((await fetch(`http://127.0.0.1:${port}/.well-known/codex-rpc-relay`)).status).toBe(200);
});
