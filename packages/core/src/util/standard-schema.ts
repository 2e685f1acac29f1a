// Standard Schema (https://standardschema.dev), declared here so core depends on no schema
// library: zod, valibot, arktype, Effect Schema, … all implement `~standard`. Codex wants JSON
// Schema (dynamic tools' `inputSchema`, a turn's `outputSchema`), so a schema also needs one: the
// Standard JSON Schema converter (`~standard.jsonSchema`, zod ≥ 4.2, arktype, valibot's
// `toStandardJsonSchema`), or one the user pairs with it (`{ schema, jsonSchema }`), or a plain JSON
// Schema object on its own. The interfaces mirror `@standard-schema/spec` 1.1 structurally.

/** The issue of a failed validation. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What `~standard.validate` returns: the value, or issues. */
export type StandardSchemaResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** The Standard JSON Schema converter (`~standard.jsonSchema`). */
export interface StandardJsonSchemaConverter {
  readonly input: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> }) => Record<string, unknown>;
  readonly output: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> }) => Record<string, unknown>;
}

/** A Standard Schema (v1): what zod, valibot, arktype, Effect Schema and others implement. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> },
    ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema: present on libraries that can describe themselves as JSON Schema. */
    readonly jsonSchema?: StandardJsonSchemaConverter;
  };
}

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
 * The JSON Schema of `schema`, describing what the model writes (a Standard Schema's *input*
 * type, draft 2020-12): the paired `jsonSchema`, the schema's own `~standard.jsonSchema`, or the
 * plain JSON Schema itself. A `string` says why there is none (a Standard Schema that cannot
 * describe itself, or a converter that threw); callers turn it into their own error.
 */
export function jsonSchemaOf(schema: SchemaInput): JsonSchemaObject | string {
  if (isStandardSchema(schema)) {
    const converter = schema["~standard"].jsonSchema;
    if (typeof converter?.input !== "function") {
      return `the ${schema["~standard"].vendor} schema has no \`~standard.jsonSchema\` converter: pass { schema, jsonSchema } with its JSON Schema`;
    }
    try {
      const converted: unknown = converter.input({ target: "draft-2020-12" });
      return isPlainObject(converted) ? converted : `the ${schema["~standard"].vendor} schema's JSON Schema converter returned no object`;
    } catch (error) {
      return `the ${schema["~standard"].vendor} schema could not be converted to JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  if (!isPlainObject(schema)) return "a schema must be a Standard Schema, { schema, jsonSchema } or a JSON Schema object";
  if (isStandardSchema(schema.schema) && isPlainObject(schema.jsonSchema)) return schema.jsonSchema;
  return schema;
}

/** Where an issue is, as `a.b[0]` (empty for the root). */
export function issuePath(issue: StandardSchemaIssue): string {
  let path = "";
  for (const segment of issue.path ?? []) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    path += typeof key === "number" ? `[${key}]` : `${path === "" ? "" : "."}${String(key)}`;
  }
  return path;
}
