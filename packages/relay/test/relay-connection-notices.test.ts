// Review 6 F6: codex's connection-level notifications (configWarning, deprecationNotice,
// remoteControl/status/changed, …) come once, right after the relay's own initialize, before any
// page is there. Each page gets those received since then after its own initialize (a state's
// latest only; bounded); later ones go to every page connected then.
import { expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { type FakePeer, openPage, tick } from "./support/fake-peer.js";
import { RelayMultiplexer } from "../src/index.js";

async function setup() {
  const server = new FakeAppServer();
  const mux = await RelayMultiplexer.start(server.transport);
  const open = (params: unknown = {}) => openPage(mux, params);
  return { server, mux, open };
}

const methods = (peer: FakePeer) => peer.sent.map((message) => message.method ?? `answer ${message.id}`);

it("a page gets the notifications codex sent after the relay's initialize, after its own initialize answer; a state's latest only", async () => {
  const { server, open } = await setup();
  server.notify("configWarning", { summary: "bad config", details: null });
  server.notify("remoteControl/status/changed", { status: "connecting" });
  server.notify("deprecationNotice", { summary: "old", details: null });
  server.notify("remoteControl/status/changed", { status: "disabled" });
  await tick();
  const first = open();
  const second = open();
  for (const page of [first, second]) {
    expect(methods(page.peer)).toEqual(["answer 0", "configWarning", "remoteControl/status/changed", "deprecationNotice"]);
    expect(page.peer.sent[2]?.params).toEqual({ status: "disabled" });
  }
});

it("later ones go to every page connected, and are replayed to pages that connect after; optOutNotificationMethods honoured", async () => {
  const { server, open } = await setup();
  const early = open();
  const optedOut = open({ capabilities: { optOutNotificationMethods: ["configWarning"] } });
  server.notify("configWarning", { summary: "later", details: null });
  await tick();
  expect(methods(early.peer)).toEqual(["answer 0", "configWarning"]);
  expect(methods(optedOut.peer)).toEqual(["answer 0"]);
  const late = open();
  expect(methods(late.peer)).toEqual(["answer 0", "configWarning"]);
});

it("bounded: the first 100 are kept", async () => {
  const { server, open } = await setup();
  for (let index = 0; index < 150; index++) server.notify("configWarning", { summary: `w${index}`, details: null });
  await tick();
  const page = open();
  const warnings = page.peer.sent.filter((message) => message.method === "configWarning");
  expect(warnings).toHaveLength(100);
  expect(warnings[0]?.params.summary).toBe("w0");
});

it("notifications of a thread or of a page's own ids are not replayed", async () => {
  const { server, open } = await setup();
  server.notify("item/agentMessage/delta", { threadId: "t", turnId: "u", itemId: "i", delta: "x" });
  server.notify("command/exec/outputDelta", { processId: "r1.p1", stream: "stdout", deltaBase64: "" });
  await tick();
  expect(methods(open().peer)).toEqual(["answer 0"]);
});
