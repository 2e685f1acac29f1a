import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { emitIndexModules } from "../../src/emit/index-modules.js";
import { printModule } from "../../src/print/module-printer.js";

/** A committed generated file without its header (the first three lines and the blank one). */
function committedBody(path: string): string {
  return readFileSync(new URL(`../../../protocol/generated/${path}`, import.meta.url), "utf8")
    .split("\n")
    .slice(4)
    .join("\n");
}

describe("index modules", () => {
  it("prints, for the version and flavor, the index.js and index.d.ts committed in @codex-rpc/protocol", () => {
    for (const flavor of ["stable", "experimental"] as const) {
      const modules = emitIndexModules("0.169.0", flavor);
      expect(printModule(modules["index.js"])).toBe(committedBody(`${flavor}/index.js`));
      expect(printModule(modules["index.d.ts"])).toBe(committedBody(`${flavor}/index.d.ts`));
    }
  });

  it("writes the version and flavor as string literals, in values and in types", () => {
    const modules = emitIndexModules('9.9.9-"quoted"', "experimental");
    expect(printModule(modules["index.js"])).toContain(
      'export const PROTOCOL_VERSION = "9.9.9-\\"quoted\\"";\nexport const PROTOCOL_FLAVOR = "experimental";\n',
    );
    expect(printModule(modules["index.d.ts"])).toContain('  readonly version: "9.9.9-\\"quoted\\"";\n  readonly flavor: "experimental";\n');
  });
});
