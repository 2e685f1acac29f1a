// Notifications that arrive while connect() runs: nobody can have subscribed to notifications()
// yet, and codex 0.169.0 sends two right after `initialize` (`configWarning` with a sandbox it
// cannot find, `remoteControl/status/changed`), so they were lost to every user.
import { expect, it } from "vitest";
import { CodexClient } from "@codex-rpc/core";
import { FakeAppServer } from "@codex-rpc/core/testing";

it("keeps the notifications that came before connect() resolved, the first 100, and none after", async () => {
  const server = new FakeAppServer();
  const warning = { summary: "Codex could not find bubblewrap on PATH.", details: null };
  server.respond("initialize", () => {
    server.notify("configWarning", warning);
    for (let i = 0; i < 150; i++) server.notify("some/newerNotification", { i });
    return { result: { userAgent: "codex-rpc/0.169.0 (fake)", codexHome: "/tmp/fake-codex-home", platformFamily: "unix", platformOs: "linux" } };
  });
  const client = await CodexClient.connect(server.transport);
  expect(client.handshakeNotifications).toHaveLength(100);
  expect(client.handshakeNotifications[0]).toEqual({ method: "configWarning", params: warning });
  server.notify("configWarning", warning);
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(client.handshakeNotifications).toHaveLength(100);
  await client.close();
});
