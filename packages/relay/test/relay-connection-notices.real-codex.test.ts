// Review 6 F6 against the real codex 0.169.0: codex sends `configWarning` (and
// `remoteControl/status/changed`) right after each initialize. A client connected to codex directly
// gets them; through the relay, codex sends them once, to the relay, before any page is there — the
// relay replays them to each page after its initialize.
import { afterEach, expect, it } from "vitest";
import { CodexClient, type JsonRpcMessage } from "@codex-rpc/core";
import { openRelayTransport } from "@codex-rpc/websocket";
import { startRelay } from "../src/index.js";
import { spawnCodexInHome } from "./support/codex-in-home.js";
import { recordingTransport } from "./support/recording-transport.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const notificationMethods = (messages: readonly JsonRpcMessage[]) =>
  messages.filter((message) => "method" in message).map((message) => (message as { method: string }).method);

async function codex() {
  const { provider, home, spawned } = await spawnCodexInHome([]);
  cleanups.push(async () => (await provider.close(), await home.cleanup()));
  return spawned;
}

it("a page gets the connection-level notifications a direct client gets after its initialize", async () => {
  const directDown: JsonRpcMessage[] = [];
  const direct = await CodexClient.connect(recordingTransport(await codex(), [], directDown));
  await new Promise((resolve) => setTimeout(resolve, 500));
  await direct.close();
  const directGot = notificationMethods(directDown);
  expect(directGot).toContain("configWarning");

  const relay = await startRelay({ upstream: { transport: await codex() } });
  cleanups.push(() => relay.close());
  await new Promise((resolve) => setTimeout(resolve, 500));
  // Recorded below the client, so nothing is missed by subscribing late.
  const pageDown: JsonRpcMessage[] = [];
  const page = await CodexClient.connect(recordingTransport(await openRelayTransport({ url: relay.url, token: relay.token, heartbeat: false }), [], pageDown));
  cleanups.push(() => page.close());
  await new Promise((resolve) => setTimeout(resolve, 200));
  const pageGot = notificationMethods(pageDown);
  for (const method of new Set(directGot)) expect(pageGot, method).toContain(method);
}, 60_000);
