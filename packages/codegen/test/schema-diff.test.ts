import { describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { notification, ref, request, writeSchemaFixture } from "./support/schema-fixture.js";

describe("codex-rpc-gen diff", () => {
  it("lists the methods and definitions added, removed and changed between two schema directories", async () => {
    const before = writeSchemaFixture();
    const after = writeSchemaFixture({
      root: {
        ClientRequest: { oneOf: [request("thing/read", ref("ThingReadParams")), request("thing/list", ref("ThingListParams"))] },
        ServerNotification: { oneOf: [notification("thing/removed", ref("ThingRemovedNotification"))] },
      },
      v2: {
        ThingListParams: { type: "object" },
        ThingListResponse: { type: "object", properties: { data: { type: "array", items: ref("Thing") } }, required: ["data"] },
        ThingRemovedNotification: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        ThingChangedNotification: undefined,
        Thing: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      },
    });
    const out: string[] = [];
    expect(await main(["diff", "--from", before, "--to", after], { out: (l) => out.push(l), err: () => {} })).toBe(0);
    expect(out).toEqual([
      "codex 9.9.9 → 9.9.9",
      "stable:",
      "  methods added: 2",
      "    client request thing/list",
      "    server notification thing/removed",
      "  methods removed: 1",
      "    server notification thing/changed",
      "  definitions added: 3",
      "    ThingListParams",
      "    ThingListResponse",
      "    ThingRemovedNotification",
      "  definitions removed: 1",
      "    ThingChangedNotification",
      "  definitions changed: 3",
      "    ClientRequest",
      "    ServerNotification",
      "    Thing",
    ]);
  });
});
