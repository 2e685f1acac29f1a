// `fuzzyFileSearch`'s `cancellationToken` is chosen by the page, in the app-server's one namespace:
// measured on codex 0.169.0, a search with a token already in use cancels the running one (a /usr
// search answered 20 files after 64 ms instead of 50 after 562 ms). Behind the relay every page
// shares that namespace, so two tabs using the same token ("file-picker") cut each other's
// searches short. It is scoped per connection as the other page-chosen ids are (src/page-ids.ts).
import { expect, it } from "vitest";
import { FakeAppServer } from "@codex-rpc/core/testing";
import { openPage, tick } from "./support/fake-peer.js";
import { MultiplexerGroup, RelayMultiplexer } from "../src/index.js";

it("two pages' fuzzyFileSearch with the same cancellationToken reach the app-server with different tokens", async () => {
  const server = new FakeAppServer();
  server.respond("fuzzyFileSearch", () => ({ result: { files: [] } }));
  const mux = await RelayMultiplexer.start(server.transport);
  const a = openPage(mux);
  const b = openPage(mux);
  a.connection.receive({ id: 1, method: "fuzzyFileSearch", params: { query: "x", roots: ["/"], cancellationToken: "file-picker" } });
  b.connection.receive({ id: 1, method: "fuzzyFileSearch", params: { query: "y", roots: ["/"], cancellationToken: "file-picker" } });
  a.connection.receive({ id: 2, method: "fuzzyFileSearch", params: { query: "z", roots: ["/"], cancellationToken: "file-picker" } });
  await tick();
  const tokens = server.received
    .filter((message) => "method" in message && message.method === "fuzzyFileSearch")
    .map((message) => (message as { params: { cancellationToken: string } }).params.cancellationToken);
  expect(tokens).toHaveLength(3);
  expect(tokens[0]).not.toBe(tokens[1]);
  expect(tokens[2]).toBe(tokens[0]); // a page's own later search still cancels its earlier one
  expect(a.peer.sent.find((message) => message.id === 1)?.result).toEqual({ files: [] });
});

// isolation "process" in front of one app-server (`url`): each page has a multiplexer of its own,
// and codex keeps the token in one namespace for all its connections (measured on 0.169.0: one
// connection's search with token "t" cut another connection's "t" search short). The multiplexers
// of one relay share a group, so their connections' numbers — and scoped tokens — differ.
it("pages on different multiplexers of one group get different upstream tokens", async () => {
  const group = new MultiplexerGroup();
  const tokens: string[] = [];
  for (let page = 0; page < 2; page++) {
    const server = new FakeAppServer();
    server.respond("fuzzyFileSearch", (params) => {
      tokens.push((params as { cancellationToken: string }).cancellationToken);
      return { result: { files: [] } };
    });
    const mux = await RelayMultiplexer.start(server.transport, { group });
    openPage(mux).connection.receive({ id: 1, method: "fuzzyFileSearch", params: { query: "x", roots: ["/"], cancellationToken: "t" } });
  }
  await tick();
  expect(tokens).toHaveLength(2);
  expect(tokens[0]).not.toBe(tokens[1]);
});
