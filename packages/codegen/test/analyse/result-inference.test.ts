import { describe, expect, it } from "vitest";
import { ref, request } from "../support/schema-fixture.js";
import { clientRequests, noParams, resolveFixture } from "../support/resolve-results.js";

const empty = { type: "object" };

/** Inference: an unclaimed, unreferenced `…Response` whose stem is made of the method's words and holds its verb. */
describe("result rule: inference among unclaimed responses", () => {
  it.each([
    { case: "words in any order", method: "session/logout", defs: { LogoutSessionResponse: empty }, result: "LogoutSessionResponse" },
    { case: "a leading Get counts as read", method: "thing/settings/read", defs: { GetThingSettingsResponse: empty }, result: "GetThingSettingsResponse" },
    { case: "the method may have words the stem lacks", method: "config/value/erase", defs: { ConfigEraseResponse: empty }, result: "ConfigEraseResponse" },
    {
      case: "the most specific match wins",
      method: "thing/settings/erase",
      defs: { EraseThingResponse: empty, EraseThingSettingsResponse: empty },
      result: "EraseThingSettingsResponse",
    },
  ])("infers: $case", ({ method, defs, result }) => {
    const { byMethod, warnings } = resolveFixture({ root: clientRequests(request(method, noParams, false)), v2: defs });
    expect(byMethod.get(method)).toMatchObject({ resolvedBy: "inferred", definition: result });
    expect(byMethod.get(method)?.how).toContain(`unclaimed ${result}`);
    expect(warnings).toEqual([]);
  });

  it.each([
    { case: "the stem must hold the method's verb", method: "thing/settings/read", defs: { ThingSettingsResponse: empty } },
    { case: "every stem word must be the method's", method: "thing/erase", defs: { EraseAllThingResponse: empty } },
    { case: "a one-word stem is too loose", method: "erase/it", defs: { EraseResponse: empty } },
    {
      case: "a response another definition references is data, not a result",
      method: "erase/thing",
      defs: { ThingEraseResponse: empty, Holder: { type: "object", properties: { last: ref("ThingEraseResponse") } } },
    },
  ])("does not infer: $case", ({ method, defs }) => {
    const { byMethod } = resolveFixture({ root: clientRequests(request(method, noParams, false)), v2: defs });
    expect(byMethod.get(method)?.resolvedBy).toBe("unknown");
  });

  it("never takes a response another method claims", () => {
    const { byMethod } = resolveFixture({
      root: { ClientRequest: { oneOf: [request("thing/read", ref("ThingReadParams")), request("read/thing", noParams, false)] } },
    });
    expect(byMethod.get("thing/read")).toMatchObject({ resolvedBy: "convention", definition: "ThingReadResponse" });
    expect(byMethod.get("read/thing")?.resolvedBy).toBe("unknown");
  });

  it("does not guess between equally good matches, and names them in the warning", () => {
    const { byMethod, warnings } = resolveFixture({
      root: clientRequests(request("thing/settings/erase", noParams, false)),
      v2: { EraseThingResponse: empty, EraseSettingsResponse: empty },
    });
    expect(byMethod.get("thing/settings/erase")?.resolvedBy).toBe("unknown");
    expect(warnings.join("\n")).toContain("equally likely: EraseSettingsResponse, EraseThingResponse");
  });
});
