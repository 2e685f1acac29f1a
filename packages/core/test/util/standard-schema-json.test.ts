import { describe, expect, expectTypeOf, it } from "vitest";
import type { SchemaOutput, StandardJSONSchemaV1, StandardSchemaV1 } from "@codex-rpc/core";
import { jsonSchemaOf, standardSchemaOf } from "../../src/util/standard-schema-json.js";
import { WEATHER_JSON_SCHEMA, weatherSchema, type Weather } from "../support/standard-schemas.js";

describe("standard-schema", () => {
  it("gives the JSON Schema of a Standard Schema's converter (input, draft 2020-12), of a { schema, jsonSchema } pair, or a plain JSON Schema as is", () => {
    const targets: string[] = [];
    const schema = weatherSchema();
    const converting: StandardSchemaV1 & StandardJSONSchemaV1 = {
      "~standard": {
        ...schema["~standard"],
        jsonSchema: {
          input: ({ target }) => (targets.push(target), { type: "object", title: "input" }),
          output: () => ({ type: "object", title: "output" }),
        },
      },
    };
    expect(jsonSchemaOf(converting)).toEqual({ type: "object", title: "input" });
    expect(targets).toEqual(["draft-2020-12"]);
    expect(jsonSchemaOf({ schema: weatherSchema({ jsonSchema: false }), jsonSchema: { type: "object" } })).toEqual({ type: "object" });
    expect(jsonSchemaOf(WEATHER_JSON_SCHEMA)).toBe(WEATHER_JSON_SCHEMA);
    expect(standardSchemaOf(WEATHER_JSON_SCHEMA)).toBeUndefined();
    expect(standardSchemaOf(schema)).toBe(schema);
  });

  it("says why there is no JSON Schema: no converter, a converter that throws or returns no object", () => {
    expect(jsonSchemaOf(weatherSchema({ jsonSchema: false }))).toMatch(/no `~standard.jsonSchema` converter: pass \{ schema, jsonSchema \}/);
    const throwing = weatherSchema();
    const broken: StandardSchemaV1 & StandardJSONSchemaV1 = {
      "~standard": {
        ...throwing["~standard"],
        jsonSchema: {
          input: () => {
            throw new Error("transforms cannot be represented");
          },
          output: () => ({}),
        },
      },
    };
    expect(jsonSchemaOf(broken)).toMatch(/could not be converted to JSON Schema: transforms cannot be represented/);
    expect(jsonSchemaOf([] as never)).toMatch(/must be a Standard Schema/);
  });

  it("types a schema's output: the Standard Schema's, the pair's, unknown for a JSON Schema", () => {
    expectTypeOf<SchemaOutput<StandardSchemaV1<string, Weather>>>().toEqualTypeOf<Weather>();
    expectTypeOf<SchemaOutput<{ schema: StandardSchemaV1<unknown, Weather>; jsonSchema: { type: "object" } }>>().toEqualTypeOf<Weather>();
    expectTypeOf<SchemaOutput<typeof WEATHER_JSON_SCHEMA>>().toEqualTypeOf<unknown>();
  });
});
