import { describe, expect, it } from "vitest";
import { connect } from "../support/connect-to-fake.js";

describe("dynamic tools (fake server)", () => {
  it("runs a registered dynamic tool on item/tool/call", async () => {
    const { server, client } = await connect(
      {},
      {
        tools: [
          {
            name: "add",
            description: "adds",
            inputSchema: { type: "object" },
            handler: (args) => String((args as { a: number; b: number }).a + (args as { a: number; b: number }).b),
          },
        ],
      },
    );
    const reply = await server.request("item/tool/call", { threadId: "t", turnId: "u", callId: "c", tool: "add", namespace: null, arguments: { a: 2, b: 3 } });
    expect(reply).toEqual({ result: { success: true, contentItems: [{ type: "inputText", text: "5" }] } });
    const unknown = await server.request("item/tool/call", { threadId: "t", turnId: "u", callId: "c", tool: "nope", namespace: null, arguments: {} });
    expect(unknown).toMatchObject({ result: { success: false } });
    await client.close();
  });
});
