import { generate, type ResultReport } from "../../src/generate.js";
import { ref, request, writeSchemaFixture, type FixtureOptions } from "./schema-fixture.js";

/** Generates types for a fixture and returns each request's result report by method, and the warnings. */
export function resolveFixture(options: FixtureOptions, resultMap?: Record<string, string>) {
  const result = generate({ schemasDir: writeSchemaFixture(options), command: "test", include: ["types"], ...(resultMap && { resultMap }) });
  const report = result.reports[0];
  if (!report) throw new Error("no stable report");
  const byMethod = new Map<string, ResultReport>(report.results.map((r) => [r.method, r]));
  return { byMethod, warnings: result.warnings, report, files: result.files };
}

/** A client request without params (`params: {type: "null"}`, optional), as codex writes them. */
export const noParams = { type: "null" } as const;

/** Root definitions whose ClientRequest is the fixture's `thing/read` plus `members`. */
export function clientRequests(...members: Record<string, unknown>[]) {
  return { ClientRequest: { oneOf: [request("thing/read", ref("ThingReadParams")), ...members] } };
}
