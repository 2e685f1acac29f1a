import { describe, expect, it } from "vitest";
import { generate } from "../../src/generate.js";
import { writeSchemaFixture } from "../support/schema-fixture.js";

function typesOf(options: Parameters<typeof writeSchemaFixture>[0] = {}): string {
  const result = generate({ schemasDir: writeSchemaFixture(options), command: "test", include: ["types"] });
  return result.files.get("stable/types.d.ts") ?? "";
}

/** The printed declaration of one type, whitespace folded, doc comments dropped. */
function declaration(types: string, name: string): string {
  const start = types.indexOf(`export type ${name} =`);
  if (start < 0) throw new Error(`no declaration of ${name}`);
  const end = types.indexOf("\n\n", start);
  return types
    .slice(start, end < 0 ? undefined : end)
    .replace(/\/\*\*[\s\S]*?\*\//g, "")
    .replace(/\s+/g, " ")
    .trim();
}

describe("emitter rules", () => {
  it("keeps server-written nullable fields present as T | null and defaulted ones present; Rust integers are numbers", () => {
    expect(declaration(typesOf(), "Thing")).toBe("export type Thing = { id: string; size: number; note: string | null; tags: Array<string>; };");
  });

  it("lets client-written params leave nullable fields out", () => {
    expect(declaration(typesOf(), "ThingReadParams")).toBe("export type ThingReadParams = { id: string; verbose?: boolean | null; };");
  });

  it("writes string enums as literal unions and tagged oneOfs as discriminated unions", () => {
    const types = typesOf({
      v2: {
        Mode: { type: "string", enum: ["fast", "slow"] },
        Shape: {
          oneOf: [
            { type: "object", properties: { type: { type: "string", enum: ["circle"] }, radius: { type: "number" } }, required: ["type", "radius"] },
            { type: "object", properties: { type: { type: "string", enum: ["square"] }, side: { type: "number" } }, required: ["type", "side"] },
          ],
        },
      },
    });
    expect(declaration(types, "Mode")).toBe('export type Mode = "fast" | "slow";');
    expect(declaration(types, "Shape")).toBe('export type Shape = { type: "circle"; radius: number; } | { type: "square"; side: number; };');
  });

  it("types description-only schemas as JsonValue, open maps as optional-value maps, and field-less structs as empty", () => {
    const types = typesOf({
      v2: {
        Holder: {
          type: "object",
          properties: {
            anything: { description: "Any JSON." },
            labels: { type: "object", additionalProperties: { type: "string" } },
            extra: { type: "object", additionalProperties: true },
          },
          required: ["anything", "labels", "extra"],
        },
        Nothing: { type: "object", description: "An empty response." },
      },
    });
    expect(declaration(types, "Holder")).toBe(
      "export type Holder = { anything: JsonValue; labels: { [key in string]?: string; }; extra: { [key in string]?: JsonValue; }; };",
    );
    expect(declaration(types, "Nothing")).toBe("export type Nothing = Record<string, never>;");
    expect(types).not.toContain("[k: string]: unknown");
  });

  it("merges a name v1 and v2 define identically, and keeps a differing v1 twin as v1.Name instead of shadowing it", () => {
    const same = typesOf({ root: { Shared: { type: "string", title: "Shared" } }, v2: { Shared: { type: "string" } } });
    expect(same.match(/export type Shared =/g)).toHaveLength(1);

    const differing = typesOf({
      root: {
        Clash: { type: "string" },
        Legacy: { type: "object", properties: { clash: { $ref: "#/definitions/Clash" } }, required: ["clash"] },
      },
      v2: { Clash: { type: "integer" } },
    });
    expect(declaration(differing, "Clash")).toBe("export type Clash = number;");
    expect(differing).toMatch(/export namespace v1 \{\s+export type Clash = string;\s+\}/);
    expect(declaration(differing, "Legacy")).toBe("export type Legacy = { clash: v1.Clash; };");
  });
});
