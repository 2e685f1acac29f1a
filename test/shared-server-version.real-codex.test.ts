// A `codex app-server --listen` shared by several clients keeps the clientInfo.name of the first
// client that initialized it in every later client's userAgent (codex 0.169.0: "other" got
// "My App/0.169.0 (…) (other; 1.0.0)"). Every client still reads the server's version: with
// strictVersion, the second one connects too.
import { CodexClient } from "@codex-rpc/core";
import { PROTOCOL_VERSION } from "@codex-rpc/protocol";
import { createCodexHome, MockResponsesProvider } from "@codex-rpc/testing";
import { openWebSocketTransport } from "@codex-rpc/websocket";
import { expect, it } from "vitest";
import { startListeningAppServer } from "./conformance/listening-app-server.js";
import { pinnedCodexBinary } from "./support/pinned-codex.js";

it("a second client of a shared app-server reads its version although the userAgent names the first client", async () => {
  const provider = await MockResponsesProvider.start({ script: [] });
  const home = await createCodexHome({ provider });
  const server = await startListeningAppServer({
    codexPath: pinnedCodexBinary(),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...home.env },
    cwd: home.dir,
    listen: "ws",
  });
  try {
    const first = await CodexClient.connect(await openWebSocketTransport({ url: server.url as string }), {
      clientInfo: { name: "My App", version: "1.0.0" },
      strictVersion: true,
    });
    const second = await CodexClient.connect(await openWebSocketTransport({ url: server.url as string }), {
      clientInfo: { name: "other", version: "1.0.0" },
      strictVersion: true,
    });
    expect(second.initializeResponse.userAgent).toMatch(/^My App\//);
    expect([first.serverVersion, second.serverVersion]).toEqual([PROTOCOL_VERSION, PROTOCOL_VERSION]);
    await second.close();
    await first.close();
  } finally {
    await server.stop();
    await provider.close();
    await home.cleanup();
  }
});
