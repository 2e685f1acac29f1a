import { describe, expect, it } from "vitest";
import { generate } from "../../src/generate.js";
import { ref, request, writeSchemaFixture } from "../support/schema-fixture.js";
import { clientRequests, noParams, resolveFixture } from "../support/resolve-results.js";

const empty = { type: "object" };

/** RESULT_TABLE: after `XParams → XResponse`, before the method-name guess and inference. */
describe("result rule: RESULT_TABLE", () => {
  it.each([
    {
      case: "names a result the convention cannot find",
      method: "account/logout",
      params: noParams,
      defs: { LogoutAccountResponse: empty },
      expected: { resolvedBy: "table", definition: "LogoutAccountResponse", how: "RESULT_TABLE → LogoutAccountResponse" },
    },
    {
      case: "names a response shared by several methods",
      method: "config/batchWrite",
      params: ref("ConfigBatchWriteParams"),
      defs: { ConfigBatchWriteParams: empty, ConfigWriteResponse: empty },
      expected: { resolvedBy: "table", definition: "ConfigWriteResponse" },
    },
    {
      case: "loses to XParams → XResponse when upstream adopts the convention",
      method: "config/batchWrite",
      params: ref("ConfigBatchWriteParams"),
      defs: { ConfigBatchWriteParams: empty, ConfigBatchWriteResponse: empty, ConfigWriteResponse: empty },
      expected: { resolvedBy: "convention", definition: "ConfigBatchWriteResponse" },
    },
    {
      case: "wins over the method-name guess (checked against upstream's map; the guess is not)",
      method: "account/gatewayOAuth/cancel",
      params: noParams,
      defs: { GatewayOAuthCancelResponse: empty, AccountGatewayOAuthCancelResponse: empty },
      expected: { resolvedBy: "table", definition: "GatewayOAuthCancelResponse" },
    },
    {
      case: "an entry whose definition is gone falls through to the next rule",
      method: "account/logout",
      params: noParams,
      defs: { AccountLogoutResponse: empty },
      expected: { resolvedBy: "convention", definition: "AccountLogoutResponse" },
    },
  ])("$case", ({ method, params, defs, expected }) => {
    const { byMethod } = resolveFixture({
      root: clientRequests(request(method, params, params !== noParams)),
      v2: defs,
    });
    expect(byMethod.get(method)).toMatchObject(expected);
  });

  it("reports which results came from the table", () => {
    const { report } = resolveFixture({
      root: { ClientRequest: { oneOf: [request("thing/read", ref("ThingReadParams")), request("account/logout", noParams, false)] } },
      v2: { LogoutAccountResponse: empty },
    });
    expect(report.resultsFromTable).toEqual(["account/logout"]);
    expect(report.resultsByRule).toEqual({ convention: 2, table: 1, inferred: 0, "user-map": 0, unknown: 0 });
  });

  it("can be replaced: with an empty table the other rules take over", () => {
    const schemasDir = writeSchemaFixture({
      root: clientRequests(request("account/logout", noParams, false), request("config/batchWrite", ref("ConfigBatchWriteParams"))),
      v2: { LogoutAccountResponse: empty, ConfigBatchWriteParams: empty, ConfigWriteResponse: empty },
    });
    const report = generate({ schemasDir, command: "test", include: ["types"], resultTable: {} }).reports[0];
    const byMethod = new Map(report?.results.map((r) => [r.method, r]));
    expect(byMethod.get("account/logout")).toMatchObject({ resolvedBy: "inferred", definition: "LogoutAccountResponse" });
    expect(byMethod.get("config/batchWrite")).toMatchObject({ resolvedBy: "unknown" });
  });
});
