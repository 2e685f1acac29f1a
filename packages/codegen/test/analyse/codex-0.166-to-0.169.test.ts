import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { generate } from "../../src/generate.js";
import { diffSchemaDirectories, type FlavorDiff, type SchemaDiff } from "../../src/analyse/schema-diff.js";

// Known changes between the two vendored codex versions, each checked by hand in the schema files.
const v166 = fileURLToPath(new URL("../../../../schemas/codex/0.166.0", import.meta.url));
const v169 = fileURLToPath(new URL("../../../../schemas/codex/0.169.0", import.meta.url));

describe("codex 0.166.0 → 0.169.0", () => {
  let diff: SchemaDiff;
  let stable: FlavorDiff;
  beforeAll(() => {
    diff = diffSchemaDirectories(v166, v169);
    stable = diff.flavors.find((f) => f.flavor === "stable") as FlavorDiff;
  });
  const entry = (name: string) => stable.entries.find((e) => e.name === name);

  it("nothing breaks a client; counts per flavor", () => {
    expect(diff.flavors.map((f) => [f.flavor, f.counts])).toEqual([
      ["stable", { breaking: 0, additive: 48, exhaustive: 5 }],
      ["experimental", { breaking: 0, additive: 68, exhaustive: 4 }],
    ]);
  });

  it("methods added", () => {
    const added = stable.entries.filter((e) => e.section !== "type" && e.change === "added").map((e) => `${e.section} ${e.name}`);
    expect(added).toEqual([
      "clientRequest modelProvider/list",
      "clientRequest modelProvider/config/write",
      "clientRequest account/securitySetup/read",
      "serverNotification thread/section/changed",
    ]);
  });

  it.each([
    ["account/gatewayOAuth/read", "params", "params-added-optional", "none → GatewayOAuthReadParams (optional)", ["sent"]],
    ["account/gatewayOAuth/login", "params", "params-added-optional", "none → GatewayOAuthLoginParams (optional)", ["sent"]],
    ["ThreadListParams", "ThreadListParams.currentAccountOnly", "field-added-optional", "added, optional boolean", ["sent"]],
    ["ModelListParams", "ModelListParams.modelProvider", "field-added-optional", "added, optional string | null", ["sent"]],
    ["GatewayOAuthReadResponse", "GatewayOAuthReadResponse.supportsDeviceAuth", "field-added-optional", "added, optional boolean", ["received"]],
    ["GetAccountResponse", "GetAccountResponse.userId", "field-added-optional", "added, optional string | null", ["received"]],
    ["CommandExecutionApprovalKind", "CommandExecutionApprovalKind", "values-added", 'values added: "humanCommand"', ["received"]],
    ["CodexErrorInfo", "CodexErrorInfo", "values-added", 'values added: "inferenceHookDenied"', ["received"]],
    ["UserInput", "UserInput", "variant-added", "variant added: type=audio FileIdUserInput", ["sent", "received"]],
  ])("%s: %s %s", (name, path, kind, detail, directions) => {
    expect(entry(name)?.details).toContainEqual(expect.objectContaining({ path, kind, detail, directions, severity: "additive" }));
  });

  it("marks new values a client receives for exhaustive matching", () => {
    expect(entry("CommandExecutionApprovalKind")).toMatchObject({ severity: "additive", note: "exhaustive-matching" });
    expect(entry("ThreadListParams")).not.toHaveProperty("note");
  });

  it("ignores description-only changes (PluginInterface differs only in descriptions)", () => {
    expect(entry("PluginInterface")).toBeUndefined();
  });

  it("--fail-on breaking passes forwards and fails backwards (methods vanish)", async () => {
    const quiet = { out: () => {}, err: () => {} };
    expect(await main(["diff", v166, v169, "--fail-on", "breaking"], quiet)).toBe(0);
    expect(await main(["diff", v169, v166, "--fail-on", "breaking"], quiet)).toBe(1);
  });

  it("0.166.0 generates: its parameterless gatewayOAuth methods resolve by method name", () => {
    const result = generate({ schemasDir: v166, command: "test", include: ["types"] });
    expect(result.warnings).toEqual([]);
    for (const report of result.reports) {
      const byMethod = new Map(report.results.map((r) => [r.method, r]));
      expect(byMethod.get("account/gatewayOAuth/read")).toMatchObject({ resolvedBy: "convention", definition: "GatewayOAuthReadResponse" });
      expect(byMethod.get("account/gatewayOAuth/login")).toMatchObject({ resolvedBy: "convention", definition: "GatewayOAuthLoginResponse" });
      expect(report.resultsByRule.unknown).toBe(0);
    }
  });
});
