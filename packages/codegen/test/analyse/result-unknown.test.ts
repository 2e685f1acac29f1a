import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { generate } from "../../src/generate.js";
import { request, writeSchemaFixture } from "../support/schema-fixture.js";
import { clientRequests, noParams, resolveFixture } from "../support/resolve-results.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

const unresolvable = {
  root: {
    ...clientRequests(request("thing/ping", noParams, false)),
    ServerRequest: { oneOf: [request("thing/ask", { type: "object", properties: { q: { type: "string" } } })] },
  },
};

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

/** The last rule: a result nothing resolves is typed `unknown`, with a warning naming the method; generation goes on. */
describe("result fallback: unknown", () => {
  it("types the result unknown and warns, naming the method and how to name its result", () => {
    const { byMethod, warnings, files } = resolveFixture(unresolvable);
    expect(byMethod.get("thing/ping")).toMatchObject({ resolvedBy: "unknown", definition: undefined });
    expect(byMethod.get("thing/ask")).toMatchObject({ resolvedBy: "unknown", definition: undefined });
    expect(warnings).toEqual([
      'stable: ClientRequest "thing/ping" (params: none) has no known result type; typed `unknown`. Name it with --result-map FILE ({ "thing/ping": "DefinitionName" })',
      'stable: ServerRequest "thing/ask" (params: none) has no known result type; typed `unknown`. Name it with --result-map FILE ({ "thing/ask": "DefinitionName" })',
    ]);
    const methods = (files.get("stable/methods.d.ts") ?? "").replace(/\s+/g, " ");
    expect(methods).toContain('"thing/ping": { params: undefined; result: unknown; };');
    expect(methods).toMatch(/"thing\/ask": \{ params: \{ q\?: string; \}; result: unknown; \};/);
  });

  it("gives an unknown result a validator that accepts anything, in both directions", async () => {
    const out = join(temporaryDirectory("codex-rpc-out-"), "generated");
    expect((await run(["generate", "--schemas", writeSchemaFixture(unresolvable), "--out", out])).code).toBe(0);
    const incoming = await import(pathToFileURL(join(out, "stable", "validators", "incoming.js")).href);
    const outgoing = await import(pathToFileURL(join(out, "stable", "validators", "outgoing.js")).href);
    for (const validate of [incoming.clientRequestResults["thing/ping"], outgoing.serverRequestResults["thing/ask"]]) {
      for (const value of [null, 1, "x", [], { any: "thing" }]) expect(validate(value)).toBe(true);
      expect(validate.errors).toBeNull();
    }
    expect(incoming.clientRequestResults["thing/read"]({})).toBe(false); // the others still check
  });

  it("emits the accept-anything validator only when some result is unknown", () => {
    const files = generate({ schemasDir: writeSchemaFixture(), command: "test" }).files;
    expect(files.get("stable/validators/incoming.js")).not.toContain("function anything");
  });

  it("the CLI exits 0, prints the warnings on stderr and the count per rule", async () => {
    const out = join(temporaryDirectory("codex-rpc-out-"), "generated");
    const result = await run(["generate", "--schemas", writeSchemaFixture(unresolvable), "--out", out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('codex-rpc-gen: warning: stable: ClientRequest "thing/ping" (params: none) has no known result type');
    expect(result.stdout).toContain("results: 1 convention, 0 table, 0 inferred, 0 user-map, 2 unknown");
    expect(readFileSync(join(out, "stable", "methods.d.ts"), "utf8")).toContain("result: unknown;");
  });
});
