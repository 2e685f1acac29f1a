import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkParity } from "./support/parity-check.js";

const oursTypesFile = fileURLToPath(new URL("../generated/stable/types.d.ts", import.meta.url));
const theirsDir = fileURLToPath(new URL("../../../schemas/codex/0.169.0/typescript", import.meta.url));
const schemaBundle = fileURLToPath(new URL("../../../schemas/codex/0.169.0/stable/codex_app_server_protocol.schemas.json", import.meta.url));

describe("parity with codex's own generate-ts types", () => {
  it("every shared type name is mutually assignable, except the differences recorded and explained", async () => {
    const result = checkParity({ oursTypesFile, theirsDir, schemaBundle });
    const names = [...result.differing.keys()].sort();
    console.log(
      `parity: checked ${result.checked.length} type names exported by both codex generate-ts and @codex-rpc/protocol ` +
        `(mutual assignability, tsc --strict): ${result.checked.length - names.length - result.bigintOnly.length} identical, ` +
        `${result.bigintOnly.length} differ only where codex writes a 64-bit integer as bigint, ${names.length} differ otherwise`,
    );
    const byKind = new Map<string, number>();
    for (const differences of result.differing.values()) {
      for (const d of differences) byKind.set(d.kind, (byKind.get(d.kind) ?? 0) + 1);
    }
    for (const [kind, count] of [...byKind].sort((a, b) => b[1] - a[1])) console.log(`  ${count} × ${kind}`);

    expect(result.checked.length).toBeGreaterThan(700);
    // Every difference, by type, direction and innermost property: a new or vanished difference fails
    // here and must be explained in packages/codegen/README.md ("Parity with codex's own types").
    const recorded = Object.fromEntries(
      names.map((name) => [name, (result.differing.get(name) ?? []).map((d) => `${d.direction}: ${d.property ?? "(whole type)"}: ${d.kind}`).sort()]),
    );
    await expect(`${JSON.stringify({ bigintOnly: result.bigintOnly, differing: recorded }, null, 2)}\n`).toMatchFileSnapshot("./parity-differences.json");
  });
});
