/** The subset of draft-07 JSON Schema that codex's exports use, as the emitter reads it. */
export interface JsonSchemaObject {
  $schema?: string;
  $ref?: string;
  title?: string;
  description?: string;
  default?: unknown;
  type?: JsonSchemaTypeName | JsonSchemaTypeName[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  items?: JsonSchema | JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  definitions?: Record<string, JsonSchema>;
  [keyword: string]: unknown;
}

export type JsonSchema = boolean | JsonSchemaObject;

export type JsonSchemaTypeName = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

/** Keywords that only annotate: they never change which values a schema accepts. */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** Validation keywords the emitter accepts; they narrow values but do not change the TypeScript type. */
export const CONSTRAINT_KEYWORDS: ReadonlySet<string> = new Set([
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
]);

/** Keywords that shape the TypeScript type. Anything outside these three sets is refused by name. */
export const STRUCTURAL_KEYWORDS: ReadonlySet<string> = new Set([
  "$ref",
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "definitions",
]);

export function isSchemaObject(schema: unknown): schema is JsonSchemaObject {
  return typeof schema === "object" && schema !== null && !Array.isArray(schema);
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function pointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}
