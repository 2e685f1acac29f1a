import { describe, expect, it } from "vitest";
import { ref, request } from "../support/schema-fixture.js";
import { clientRequests, noParams, resolveFixture } from "../support/resolve-results.js";

const empty = { type: "object" };

describe("result rule: the naming convention", () => {
  it.each([
    {
      rule: "XParams → XResponse",
      method: "thing/write",
      request: request("thing/write", ref("ThingWriteParams")),
      defs: { ThingWriteParams: empty, ThingWriteResponse: empty },
      result: "ThingWriteResponse",
      how: "ThingWriteParams → ThingWriteResponse",
    },
    {
      rule: "optional params (anyOf [XParams, null]) → XResponse",
      method: "thing/peek",
      request: request("thing/peek", { anyOf: [ref("ThingPeekParams"), { type: "null" }] }, false),
      defs: { ThingPeekParams: empty, ThingPeekResponse: empty },
      result: "ThingPeekResponse",
      how: "ThingPeekParams → ThingPeekResponse",
    },
    {
      rule: "no params: every segment joined",
      method: "cache/reset",
      request: request("cache/reset", noParams, false),
      defs: { CacheResetResponse: empty },
      result: "CacheResetResponse",
      how: "method name → CacheResetResponse",
    },
    {
      rule: "no params: leading segments dropped (the tester's 0.166.0 case)",
      method: "account/gatewayOAuth/read",
      request: request("account/gatewayOAuth/read", noParams, false),
      defs: { GatewayOAuthReadResponse: empty },
      result: "GatewayOAuthReadResponse",
      how: "method name → GatewayOAuthReadResponse",
    },
    {
      rule: "no params: the longest candidate wins",
      method: "account/gatewayOAuth/login",
      request: request("account/gatewayOAuth/login", noParams, false),
      defs: { GatewayOAuthLoginResponse: empty, AccountGatewayOAuthLoginResponse: empty },
      result: "AccountGatewayOAuthLoginResponse",
      how: "method name → AccountGatewayOAuthLoginResponse",
    },
    {
      rule: "no params, one segment",
      method: "ping",
      request: request("ping", undefined),
      defs: { PingResponse: empty },
      result: "PingResponse",
      how: "method name → PingResponse",
    },
  ])("$rule", ({ method, request: member, defs, result, how }) => {
    const { byMethod, warnings } = resolveFixture({
      root: clientRequests(member),
      v2: defs,
    });
    expect(byMethod.get(method)).toMatchObject({ resolvedBy: "convention", definition: result, how });
    expect(warnings).toEqual([]);
  });

  it("resolves server requests the same way", () => {
    expect(resolveFixture({}).byMethod.get("thing/approve")).toMatchObject({ resolvedBy: "convention", definition: "ThingApproveResponse" });
  });

  it.each([
    { case: "never by the last segment alone", method: "thing/reset", params: noParams, defs: { ResetResponse: empty } },
    {
      case: "not by method name when params are named",
      method: "thing/poke",
      params: ref("PokeParams"),
      defs: { PokeParams: empty, ThingPokeResponse: empty, Other: { type: "object", properties: { r: ref("ThingPokeResponse") } } },
    },
  ])("$case", ({ method, params, defs }) => {
    const { byMethod } = resolveFixture({
      root: clientRequests(request(method, params, params !== noParams)),
      v2: defs,
    });
    expect(byMethod.get(method)?.resolvedBy).toBe("unknown");
  });
});
