// Hand-written Standard Schemas for core's tests (core depends on no schema library): what zod,
// valibot or arktype objects look like to the client.
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@codex-rpc/core";

export interface Weather {
  readonly city: string;
  readonly celsius: number;
}

export const WEATHER_JSON_SCHEMA = {
  type: "object",
  properties: { city: { type: "string" }, celsius: { type: "number" } },
  required: ["city", "celsius"],
  additionalProperties: false,
} as const;

/** A Standard Schema of `Weather` that can give its JSON Schema (`~standard.jsonSchema`), as zod ≥ 4.2 does. */
export function weatherSchema(
  options: { readonly asyncValidate?: boolean; readonly jsonSchema?: boolean } = {},
): StandardSchemaV1<unknown, Weather> & { readonly "~standard": { readonly jsonSchema?: StandardJSONSchemaV1.Converter } } {
  const validate = (value: unknown) => {
    const record = value as Partial<Weather> | null;
    const issues = [
      ...(typeof record?.city === "string" ? [] : [{ message: "expected a string", path: ["city"] }]),
      ...(typeof record?.celsius === "number" ? [] : [{ message: "expected a number", path: [{ key: "celsius" }] }]),
    ];
    return issues.length > 0 ? { issues } : { value: { city: record?.city as string, celsius: record?.celsius as number } };
  };
  return {
    "~standard": {
      version: 1,
      vendor: "test",
      validate: options.asyncValidate ? async (value) => validate(value) : validate,
      ...(options.jsonSchema === false ? {} : { jsonSchema: { input: () => ({ ...WEATHER_JSON_SCHEMA }), output: () => ({ ...WEATHER_JSON_SCHEMA }) } }),
    },
  };
}
