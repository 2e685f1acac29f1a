import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { request, writeSchemaFixture } from "../support/schema-fixture.js";
import { clientRequests, noParams, resolveFixture } from "../support/resolve-results.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

const empty = { type: "object" };
const pingFixture = { root: clientRequests(request("thing/ping", noParams, false)), v2: { PingResult: empty } };

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

function mapFile(content: string): string {
  const file = join(temporaryDirectory("codex-rpc-map-"), "results.json");
  writeFileSync(file, content);
  return file;
}

/** The user's map (`resultMap` option, `--result-map FILE`): consulted before every other rule. */
describe("result rule: the user's map", () => {
  it.each([
    { case: "names a result no rule finds", map: { "thing/ping": "PingResult" }, method: "thing/ping", result: "PingResult" },
    { case: "wins over the convention", map: { "thing/read": "Thing" }, method: "thing/read", result: "Thing" },
    { case: "wins over RESULT_TABLE", map: { "account/logout": "PingResult" }, method: "account/logout", result: "PingResult" },
  ] as { case: string; map: Record<string, string>; method: string; result: string }[])("$case", ({ map, method, result }) => {
    const { byMethod, warnings } = resolveFixture(
      {
        root: clientRequests(request("thing/ping", noParams, false), request("account/logout", noParams, false)),
        v2: { PingResult: empty, LogoutAccountResponse: empty },
      },
      map,
    );
    expect(byMethod.get(method)).toMatchObject({ resolvedBy: "user-map", definition: result, how: `result map → ${result}` });
    expect(warnings.filter((warning) => warning.includes("result map"))).toEqual([]);
  });

  it("warns about an entry naming a missing definition and falls through to the other rules", () => {
    const { byMethod, warnings } = resolveFixture({}, { "thing/read": "NoSuchResponse" });
    expect(byMethod.get("thing/read")).toMatchObject({ resolvedBy: "convention", definition: "ThingReadResponse" });
    expect(warnings).toEqual(['stable: the result map names NoSuchResponse for "thing/read", which these schemas do not define; ignored']);
  });

  it("warns about an entry for a method the schemas do not have", () => {
    expect(resolveFixture({}, { "thing/gone": "Thing" }).warnings).toEqual([
      'the result map names "thing/gone", which no request in these schemas has; ignored',
    ]);
  });

  it("--result-map FILE: used, reported per method, and named in the headers' command", async () => {
    const schemas = writeSchemaFixture(pingFixture);
    const file = mapFile(JSON.stringify({ "thing/ping": "PingResult" }));
    const out = join(temporaryDirectory("codex-rpc-out-"), "generated");
    const result = await run(["generate", "--schemas", schemas, "--out", out, "--result-map", file]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("results: 2 convention, 0 table, 0 inferred, 1 user-map, 0 unknown");
    expect(result.stdout).toContain("  user-map   thing/ping: result map → PingResult");
    const methods = readFileSync(join(out, "stable", "methods.d.ts"), "utf8").replace(/\s+/g, " ");
    expect(methods).toContain('"thing/ping": { params: undefined; result: T.PingResult; };');
    expect(methods).toContain(`--result-map ${file.split("\\").join("/")}`);
  });

  it.each([
    { case: "a file that does not exist", content: undefined, error: "RESULT_MAP_INVALID: result map not found" },
    { case: "invalid JSON", content: "{ nope", error: "INVALID_JSON: invalid JSON" },
    { case: "not an object", content: '["thing/ping"]', error: "RESULT_MAP_INVALID: a result map is a JSON object" },
    {
      case: "a value that is no definition name",
      content: '{ "thing/ping": 3 }',
      error: 'RESULT_MAP_INVALID: the result of "thing/ping" must be a definition name, not 3',
    },
  ])("refuses $case with exit 2", async ({ content, error }) => {
    const file = content === undefined ? join(tmpdir(), "codex-rpc-no-such-map.json") : mapFile(content);
    const out = join(temporaryDirectory("codex-rpc-out-"), "generated");
    const result = await run(["generate", "--schemas", writeSchemaFixture(pingFixture), "--out", out, "--result-map", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(error);
  });
});
