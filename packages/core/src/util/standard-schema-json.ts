// What codex can be given as a schema, and the JSON Schema it gets. Codex wants JSON Schema (a
// turn's `outputSchema`, dynamic tools' `inputSchema`); a Standard Schema gives one through its
// Standard JSON Schema converter (`~standard.jsonSchema`, zod ≥ 4.2, arktype, valibot's
// `toStandardJsonSchema`), or the user pairs it with one (`{ schema, jsonSchema }`); a plain JSON
// Schema object goes as it is. The JSON Schema describes what the model writes: the schema's
// *input* type, draft 2020-12 (the rule dynamic tools follow too).
import type { StandardSchemaV1 } from "./standard-schema.js";

/** The JSON Schema draft asked of a Standard JSON Schema converter. */
export const JSON_SCHEMA_TARGET = "draft-2020-12";

/** A JSON Schema object, as codex takes it. */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;

/** A Standard Schema with its JSON Schema given alongside (for libraries without `~standard.jsonSchema`). */
export interface StandardSchemaWithJsonSchema<S extends StandardSchemaV1 = StandardSchemaV1> {
  readonly schema: S;
  readonly jsonSchema: JsonSchemaObject;
}

/**
 * A schema codex can be given: a Standard Schema that can convert itself to JSON Schema, a Standard
 * Schema with its JSON Schema (`{ schema, jsonSchema }`), or a plain JSON Schema (not validated
 * by the client: its values are typed `unknown`).
 */
export type SchemaInput = StandardSchemaV1 | StandardSchemaWithJsonSchema | JsonSchemaObject;

/** The type a schema's values have after validation: the Standard Schema's output, else `unknown`. */
export type SchemaOutput<S> =
  S extends StandardSchemaV1<unknown, infer O>
    ? O
    : S extends { readonly schema: StandardSchemaV1<unknown, infer O>; readonly jsonSchema: object }
      ? O
      : unknown;

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const standard = typeof value === "object" || typeof value === "function" ? (value as { "~standard"?: unknown } | null)?.["~standard"] : undefined;
  return typeof standard === "object" && standard !== null && typeof (standard as { validate?: unknown }).validate === "function";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The Standard Schema that validates values of `schema`, or undefined for a plain JSON Schema. */
export function standardSchemaOf(schema: SchemaInput): StandardSchemaV1 | undefined {
  if (isStandardSchema(schema)) return schema;
  if (isPlainObject(schema) && isStandardSchema(schema.schema) && isPlainObject(schema.jsonSchema)) return schema.schema;
  return undefined;
}

/**
 * The JSON Schema of `schema`: the paired `jsonSchema`, the Standard Schema's own converter
 * (`~standard.jsonSchema.input({ target: "draft-2020-12" })`), or the plain JSON Schema itself. A
 * `string` says why there is none (a Standard Schema that cannot describe itself, or a converter
 * that threw); callers turn it into their own error.
 */
export function jsonSchemaOf(schema: SchemaInput): JsonSchemaObject | string {
  if (isStandardSchema(schema)) {
    const standard = schema["~standard"];
    const converter = (standard as { jsonSchema?: { input?: unknown } }).jsonSchema;
    if (typeof converter?.input !== "function") {
      return `the ${standard.vendor} schema has no \`~standard.jsonSchema\` converter: pass { schema, jsonSchema } with its JSON Schema`;
    }
    try {
      const converted: unknown = (converter.input as (options: { target: string }) => unknown)({ target: JSON_SCHEMA_TARGET });
      return isPlainObject(converted) ? converted : `the ${standard.vendor} schema's JSON Schema converter returned no object`;
    } catch (error) {
      return `the ${standard.vendor} schema could not be converted to JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  if (!isPlainObject(schema)) return "a schema must be a Standard Schema, { schema, jsonSchema } or a JSON Schema object";
  if (isStandardSchema(schema.schema) && isPlainObject(schema.jsonSchema)) return schema.jsonSchema;
  return schema;
}
