import { describe, expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";

describe("client.models() (scripted server)", () => {
  it("follows nextCursor page by page, asking for the next page only as the loop reads", async () => {
    const { server, client } = await connect();
    const pages: Record<string, { data: { id: string }[]; nextCursor: string | null }> = {
      start: { data: [{ id: "a" }, { id: "b" }], nextCursor: "2" },
      "2": { data: [{ id: "c" }], nextCursor: null },
    };
    const asked: unknown[] = [];
    server.respond("model/list", (params) => {
      asked.push(params);
      return { result: pages[(params as { cursor: string | null }).cursor ?? "start"] };
    });
    const ids: string[] = [];
    for await (const model of client.models({ limit: 2 })) ids.push(model.id);
    expect(ids).toEqual(["a", "b", "c"]);
    expect(asked).toEqual([{ limit: 2 }, { limit: 2, cursor: "2" }]);
    asked.length = 0;
    for await (const model of client.models()) if (model.id === "a") break;
    expect(asked).toHaveLength(1);
    await client.close();
  });

  it("a server that loops on one cursor, or answers without data, is a ProtocolError (as for the thread listings)", async () => {
    const { server, client } = await connect();
    server.respond("model/list", () => ({ result: { data: [{ id: "x" }], nextCursor: "same" } }));
    const ids: string[] = [];
    await expect(
      (async () => {
        for await (const model of client.models()) ids.push(model.id);
      })(),
    ).rejects.toMatchObject({ code: "PROTOCOL_ERROR", message: expect.stringContaining("nextCursor") });
    expect(ids).toEqual(["x", "x"]);
    server.respond("model/list", () => ({ result: { data: "oops" } }));
    await expect(
      (async () => {
        for await (const model of client.models()) void model;
      })(),
    ).rejects.toMatchObject({ code: "PROTOCOL_ERROR" });
    await client.close();
  });
});
