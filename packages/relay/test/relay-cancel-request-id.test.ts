// `thread/sample/cancel` and `userVerification/cancel` name an earlier request by its JSON-RPC id
// (`requestId`). Measured on codex 0.169.0: `thread/sample/cancel { requestId: 10 }` ends the
// `thread/sample` whose id is 10 with -32603 "sample canceled", and answers `{}` to an id it does not
// know. The relay rewrites request ids upstream, so it must rewrite `requestId` too: the page's own
// id to the upstream id of its own request, and never let a page name another page's request.
import { expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { openPage, tick } from "./support/fake-peer.js";
import { RelayMultiplexer } from "../src/index.js";

const THREAD = "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";

async function setup() {
  const server = new FakeAppServer();
  server.respond("thread/start", () => ({ result: { thread: { id: THREAD } } }));
  server.respond("thread/sample", () => new Promise(() => {})); // a sample the model has not answered yet
  server.respond("userVerification/verify", () => new Promise(() => {}));
  for (const method of ["thread/sample/cancel", "userVerification/cancel"]) server.respond(method, () => ({ result: {} }));
  const mux = await RelayMultiplexer.start(server.transport);
  const a = openPage(mux);
  const b = openPage(mux);
  a.connection.receive({ id: 1, method: "thread/start", params: {} });
  await tick();
  const upstreamIdOf = (method: string) =>
    (server.received.find((message) => "method" in message && message.method === method) as { id: number } | undefined)?.id;
  const cancels = (method: string) =>
    server.received
      .filter((message) => "method" in message && message.method === method)
      .map((message) => (message as { params: { requestId: unknown } }).params.requestId);
  return { a, b, upstreamIdOf, cancels };
}

it("a page's thread/sample/cancel names its own thread/sample upstream, by the id the relay gave it", async () => {
  const { a, upstreamIdOf, cancels } = await setup();
  a.connection.receive({ id: "s1", method: "thread/sample", params: { threadId: THREAD, prompt: "x" } });
  await tick();
  a.connection.receive({ id: 3, method: "thread/sample/cancel", params: { requestId: "s1" } });
  await tick();
  expect(upstreamIdOf("thread/sample")).toBeTypeOf("number");
  expect(cancels("thread/sample/cancel")).toEqual([upstreamIdOf("thread/sample")]);
});

it("another page cannot cancel a page's thread/sample or userVerification/verify by guessing the relay's upstream ids", async () => {
  const { a, b, upstreamIdOf, cancels } = await setup();
  a.connection.receive({ id: 2, method: "thread/sample", params: { threadId: THREAD, prompt: "x" } });
  a.connection.receive({ id: 3, method: "userVerification/verify", params: { challenge: "AA", description: "d", title: "t" } });
  await tick();
  const targets = [upstreamIdOf("thread/sample"), upstreamIdOf("userVerification/verify")];
  for (const [index, requestId] of [...targets, 2, 3].entries()) {
    b.connection.receive({ id: 10 + index, method: "thread/sample/cancel", params: { requestId } });
    b.connection.receive({ id: 20 + index, method: "userVerification/cancel", params: { requestId } });
  }
  await tick();
  for (const named of [...cancels("thread/sample/cancel"), ...cancels("userVerification/cancel")]) expect(targets).not.toContain(named);
});
