// Types of valid-value.mjs (plain JavaScript, shared with tools/malformed-turns.mjs).

/** A JSON Schema node of the vendored bundle. */
export type JsonSchema = { readonly [key: string]: unknown } | boolean;

/** Stand-ins for the live ids (and delta texts), replaced by `instantiate` (malformed-messages.mjs). */
export declare const ID_PLACEHOLDERS: Readonly<{ thread: string; turn: string; item: string; text: string }>;

/** A field a template sets: where, whether the schema requires it, the JSON types and enum values it admits. */
export interface FieldInfo {
  readonly path: readonly string[];
  readonly required: boolean;
  /** JSON types the field admits ("integer" apart from "number"); empty when it admits any. */
  readonly types: readonly string[];
  readonly enum: readonly string[] | undefined;
}

export interface UnionPoint {
  readonly key: string;
  readonly count: number;
}

export declare function validValue(
  schema: JsonSchema,
  definitions: { readonly [name: string]: JsonSchema },
  choices?: Map<string, number>,
): { value: unknown; fields: FieldInfo[]; unions: UnionPoint[] };

export declare function resolve(node: JsonSchema | undefined, definitions: { readonly [name: string]: JsonSchema }): JsonSchema | undefined;
export declare function jsonTypesOf(node: JsonSchema | undefined, definitions: { readonly [name: string]: JsonSchema }): string[];
export declare function enumOf(node: JsonSchema | undefined, definitions: { readonly [name: string]: JsonSchema }): string[] | undefined;
