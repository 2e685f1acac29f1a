import { describe, expect, it } from "vitest";
import { generate } from "../../src/generate.js";
import { ref, request, writeSchemaFixture } from "../support/schema-fixture.js";

describe("method maps", () => {
  it("maps every method to params and result, by convention or by the result table", () => {
    const result = generate({
      schemasDir: writeSchemaFixture({
        root: {
          ClientRequest: {
            oneOf: [request("thing/read", ref("ThingReadParams")), request("account/logout", { type: "null" }, false)],
          },
        },
        v2: { LogoutAccountResponse: { type: "object" } },
      }),
      command: "test",
      include: ["types"],
    });
    const methods = (result.files.get("stable/methods.d.ts") ?? "").replace(/\s+/g, " ");
    expect(methods).toContain('"thing/read": { params: T.ThingReadParams; result: T.ThingReadResponse; };');
    expect(methods).toContain('"account/logout": { params: undefined; result: T.LogoutAccountResponse; };');
    expect(methods).toContain('"thing/approve": { params: T.ThingApproveParams; result: T.ThingApproveResponse; };');
    expect(methods).toContain('"initialized": { params: undefined; };');
    expect(result.reports[0]?.resultsFromTable).toEqual(["account/logout"]);
  });

  it("writes each kind's method names as a frozen array in methods.js, declared as a readonly tuple in methods.d.ts", () => {
    const result = generate({
      schemasDir: writeSchemaFixture({
        root: { ClientRequest: { oneOf: [request("thing/read", ref("ThingReadParams")), request("thing/write", ref("ThingReadParams"))] } },
      }),
      command: "test",
      include: ["types"],
    });
    const methodsJs = result.files.get("stable/methods.js") ?? "";
    expect(methodsJs).toContain(
      '\nexport const CLIENT_REQUEST_METHODS = /* @__PURE__ */ Object.freeze([\n  "thing/read",\n  "thing/write",\n]);\n\nexport const SERVER_REQUEST_METHODS',
    );
    expect(methodsJs.endsWith("]);\n")).toBe(true);
    expect(result.files.get("stable/methods.d.ts")).toContain(
      'export declare const CLIENT_REQUEST_METHODS: readonly [\n    "thing/read",\n    "thing/write"\n];',
    );
  });
});
