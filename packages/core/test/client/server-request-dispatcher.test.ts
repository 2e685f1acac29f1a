import { describe, expect, it } from "vitest";
import { clientInternals } from "@codex-rpc/core/testing";
import { connect } from "../support/connect-to-fake.js";

describe("server requests (fake server)", () => {
  it("answers an unknown server request with -32601 and a throwing handler with -32603", async () => {
    const { server, client } = await connect();
    expect(await server.request("item/somethingNew", {})).toMatchObject({ error: { code: -32601 } });
    client.handle("item/tool/requestUserInput", () => {
      throw new Error("no operator here");
    });
    const reply = await server.request("item/tool/requestUserInput", { threadId: "t", turnId: "u", itemId: "i", questions: [] });
    expect(reply).toMatchObject({ error: { code: -32603, message: expect.stringContaining("no operator here") } });
    await client.close();
  });

  it("refuses a second handler for a method until the first is disposed", async () => {
    const { server, client } = await connect();
    const dispose = client.handle("item/tool/requestUserInput", () => ({ answers: {} }));
    expect(() => client.handle("item/tool/requestUserInput", () => ({ answers: {} }))).toThrow(expect.objectContaining({ code: "HANDLER_ALREADY_REGISTERED" }));
    dispose();
    client.handle("item/tool/requestUserInput", () => ({ answers: { q: { answers: ["yes"] } } }));
    expect(await server.request("item/tool/requestUserInput", {})).toEqual({ result: { answers: { q: { answers: ["yes"] } } } });
    await client.close();
  });

  it("withdraws a pending server request on serverRequest/resolved", async () => {
    const { server, client } = await connect();
    let aborted = false;
    client.handle(
      "item/tool/requestUserInput",
      (_params, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            aborted = true;
            resolve({ answers: {} });
          });
        }),
    );
    void server.request("item/tool/requestUserInput", {});
    await new Promise((r) => setTimeout(r, 5));
    expect(clientInternals(client).connection.pendingServerRequestCount).toBe(1);
    server.notify("serverRequest/resolved", { threadId: "t", requestId: 1000 });
    await new Promise((r) => setTimeout(r, 5));
    expect(aborted).toBe(true);
    expect(clientInternals(client).connection.pendingServerRequestCount).toBe(0);
    await client.close();
  });
});
