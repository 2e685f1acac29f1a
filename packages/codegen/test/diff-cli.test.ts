import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli.js";
import type { SchemaDiff } from "../src/analyse/schema-diff.js";
import { notification, ref, request, writeSchemaFixture } from "./support/schema-fixture.js";

const run = runCli;

const before = writeSchemaFixture();
const after = writeSchemaFixture({
  root: {
    ClientRequest: { oneOf: [request("thing/read", ref("ThingReadParams")), request("thing/list", ref("ThingListParams"))] },
    ServerNotification: { oneOf: [notification("thing/removed", ref("ThingRemovedNotification"))] },
  },
  v2: {
    ThingListParams: { type: "object", description: "Lists things." },
    ThingListResponse: { type: "object", properties: { data: { type: "array", items: ref("Thing") } }, required: ["data"] },
    ThingRemovedNotification: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    ThingChangedNotification: undefined,
    ThingReadParams: {
      type: "object",
      properties: { id: { type: "string" }, verbose: { type: ["boolean", "null"] }, depth: { type: "integer" } },
      required: ["id", "depth"],
    },
  },
});

describe("codex-rpc-gen diff", () => {
  it("prints each method and type added, removed or changed, down to the field, marked for a client", async () => {
    const result = await run(["diff", before, after]);
    expect(result.code).toBe(0);
    expect(result.out.map((line) => line.trimEnd())).toEqual([
      "codex 9.9.9 → 9.9.9",
      "",
      "stable: 3 breaking, 5 additive",
      "  client requests:",
      "    + thing/list                                                additive",
      "  server notifications:",
      "    + thing/removed                                             additive",
      "    - thing/changed                                             BREAKING",
      "  types ([sent] the client writes it, [received] the server does, [unused] no message uses it):",
      "    - ThingChangedNotification [received]                       BREAKING",
      "    + ThingListParams [sent]                                    additive",
      "    + ThingListResponse [received]                              additive",
      "    ~ ThingReadParams [sent]",
      "        depth: added, required integer                          BREAKING",
      "    + ThingRemovedNotification [received]                       additive",
    ]);
  });

  it("takes --from/--to as well as two positional directories", async () => {
    expect((await run(["diff", "--from", before, "--to", after])).stdout).toBe((await run(["diff", before, after])).stdout);
  });

  it("--json gives the same diff as data", async () => {
    const result = await run(["diff", before, after, "--json"]);
    const diff = JSON.parse(result.stdout) as SchemaDiff;
    expect(diff.flavors[0]?.counts).toEqual({ breaking: 3, additive: 5, exhaustive: 0 });
    expect(diff.flavors[0]?.entries.find((e) => e.name === "ThingReadParams")?.details).toEqual([
      { path: "ThingReadParams.depth", kind: "field-added-required", detail: "added, required integer", severity: "breaking", directions: ["sent"] },
    ]);
  });

  it.each([
    { args: ["--fail-on", "breaking"], from: before, to: after, code: 1 },
    { args: ["--fail-on", "breaking"], from: before, to: before, code: 0 },
    { args: ["--fail-on", "any"], from: before, to: after, code: 1 },
    { args: ["--fail-on", "any"], from: before, to: before, code: 0 },
    { args: [], from: before, to: after, code: 0 },
  ])("exits $code with $args when the schemas differ: $to", async ({ args, from, to, code }) => {
    expect((await run(["diff", from, to, ...args])).code).toBe(code);
  });

  it.each([
    { args: ["diff", before], error: "NEW (or --to DIR) is required" },
    { args: ["diff", before, after, after], error: "diff takes two directories, got 3" },
    { args: ["diff", before, "--to", after], error: "either as OLD NEW or as --from/--to" },
    { args: ["diff", before, after, "--fail-on", "sometimes"], error: '--fail-on takes breaking or any, not "sometimes"' },
    { args: ["diff", before, after, "--flavor", "beta"], error: '--flavor takes stable or experimental, not "beta"' },
  ])("refuses bad usage with exit 2: $error", async ({ args, error }) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("USAGE: ");
    expect(result.stderr).toContain(error);
  });

  it("no flavor in common (one side only stable/, the other only experimental/) is SCHEMA_FILE_MISSING, exit 2, not an empty diff that passes", async () => {
    // Export folders without a manifest (one with a manifest must hold stable/).
    const stableOnly = writeSchemaFixture();
    rmSync(join(stableOnly, "manifest.json"));
    const experimentalOnly = writeSchemaFixture();
    rmSync(join(experimentalOnly, "manifest.json"));
    renameSync(join(experimentalOnly, "stable"), join(experimentalOnly, "experimental"));
    for (const [from, to] of [
      [stableOnly, experimentalOnly],
      [experimentalOnly, stableOnly],
    ] as const) {
      for (const extra of [[], ["--json"]]) {
        const result = await run(["diff", from, to, "--fail-on", "breaking", ...extra]);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain("SCHEMA_FILE_MISSING: ");
        expect(result.stderr).toContain("no flavor in common");
        expect(result.out).toEqual([]);
      }
    }
  });
});
