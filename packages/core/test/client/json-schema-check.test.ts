import { describe, expect, it } from "vitest";
import { jsonSchemaValidator } from "../../src/client/json-schema-check.js";

function issues(schema: unknown, value: unknown) {
  const result = jsonSchemaValidator(schema).validate(value) as { value?: unknown; issues?: { message: string; path?: readonly PropertyKey[] }[] };
  return result.issues?.map(({ message, path }) => `${(path ?? []).map(String).join(".")}: ${message}`) ?? [];
}

const WEATHER = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1 },
    days: { type: "integer", minimum: 1, maximum: 7 },
    unit: { enum: ["C", "F"] },
    tags: { type: "array", items: { type: "string" }, maxItems: 2 },
  },
  required: ["city"],
  additionalProperties: false,
};

describe("jsonSchemaValidator (plain JSON Schema tools)", () => {
  it("passes a value that fits, as it is", () => {
    const value = { city: "Paris", days: 2, unit: "C", tags: ["a"] };
    expect(jsonSchemaValidator(WEATHER).validate(value)).toEqual({ value });
    expect(issues(true, 42)).toEqual([]);
    expect(issues({}, { anything: [1] })).toEqual([]);
  });

  it("reports types, required and unknown properties, enums, bounds and items with their paths", () => {
    expect(issues(WEATHER, { days: 1.5, unit: "K", tags: ["a", 2, "c"], extra: true })).toEqual([
      "city: Required",
      "days: Expected integer, received number",
      'unit: Expected one of "C", "F"',
      "tags: Expected at most 2 items",
      "tags.1: Expected string, received integer",
      "extra: Unknown property",
    ]);
    expect(issues(WEATHER, { city: "", days: 9 })).toEqual(["city: Expected at least 1 characters", "days: Expected a number <= 7"]);
    expect(issues(WEATHER, "Paris")).toEqual([": Expected object, received string"]);
    expect(issues({ type: ["string", "null"] }, null)).toEqual([]);
    expect(issues(false, 1)).toEqual([": No value is allowed here"]);
  });

  it("anyOf / oneOf need one matching shape; allOf all of them; const, pattern, multipleOf, exclusive bounds", () => {
    expect(issues({ anyOf: [{ type: "string" }, { type: "number" }] }, true)).toEqual([": Matches none of the 2 allowed shapes (anyOf)"]);
    expect(issues({ oneOf: [{ type: "string" }, { type: "number" }] }, 3)).toEqual([]);
    expect(issues({ allOf: [{ minimum: 2 }, { maximum: 3 }] }, 4)).toEqual([": Expected a number <= 3"]);
    expect(issues({ const: { a: [1] } }, { a: [1] })).toEqual([]);
    expect(issues({ const: "x" }, "y")).toEqual([': Expected "x"']);
    expect(issues({ pattern: "^[a-z]+$" }, "A1")).toEqual([": Expected to match ^[a-z]+$"]);
    expect(issues({ multipleOf: 0.5, exclusiveMinimum: 0 }, 0)).toEqual([": Expected a number > 0"]);
    expect(issues({ multipleOf: 0.5 }, 0.3)).toEqual([": Expected a multiple of 0.5"]);
    expect(issues({ additionalProperties: { type: "number" } }, { a: 1, b: "2" })).toEqual(["b: Expected number, received string"]);
  });

  it("lets through what it does not follow: $ref, format, unknown types, a pattern JavaScript cannot read", () => {
    expect(issues({ $ref: "#/$defs/x", $defs: { x: { type: "number" } } }, "not a number")).toEqual([]);
    expect(issues({ type: "string", format: "email" }, "nope")).toEqual([]);
    expect(issues({ type: "decimal" }, "1.0")).toEqual([]);
    expect(issues({ pattern: "(?<=" }, "x")).toEqual([]);
  });
});
