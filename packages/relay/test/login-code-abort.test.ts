// A login-code exchange (`POST /.well-known/codex-rpc-relay/code`) whose client goes away before
// its body has arrived: reading the body rejects ("aborted", ECONNRESET), and nothing may let that
// rejection escape — unhandled, it ends the relay's process, and any local process can send such a
// request (the Origin header it needs is forged as easily as in login-code-race.test.ts).
import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { type RelayHandle, startRelay } from "../src/index.js";
import { LOGIN_CODE_PATH } from "../src/login-codes.js";

let relay: RelayHandle | undefined;
const escaped: unknown[] = [];
const onUnhandled = (reason: unknown) => void escaped.push(reason);
afterEach(async () => {
  process.off("unhandledRejection", onUnhandled);
  await relay?.close();
});

it("a client that resets the connection halfway through its body: no unhandled rejection, and the relay goes on exchanging codes", async () => {
  process.on("unhandledRejection", onUnhandled);
  relay = await startRelay({ upstream: { transport: new FakeAppServer().transport } });
  const origin = `http://127.0.0.1:${relay.port}`;
  const socket = connect(relay.port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(
    `POST ${LOGIN_CODE_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"code":`,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.resetAndDestroy();
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(escaped).toEqual([]);

  const response = await fetch(`${origin}${LOGIN_CODE_PATH}`, { method: "POST", headers: { origin }, body: JSON.stringify({ code: relay.createLoginCode() }) });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ token: relay.token });
});
