// A turn's structured output: `outputSchema` (a Standard Schema, `{ schema, jsonSchema }` or a plain
// JSON Schema) goes to codex as `turn/start`'s `outputSchema` (codex 0.169.0 hands it to the model
// as `text.format: { type: "json_schema", strict: true, name: "codex_output_schema", schema }`, for
// that turn only); the turn's final agent message is then parsed as JSON and validated
// (structured-output-parse, loaded on demand when a turn with a schema ends).
import { InvalidOptionError } from "../errors/errors.js";
import type { StandardSchemaV1 } from "../util/standard-schema.js";
import { jsonSchemaOf, standardSchemaOf, type JsonSchemaObject, type SchemaInput, type SchemaOutput } from "../util/standard-schema-json.js";

/** What `outputSchema` takes: a Standard Schema (zod, valibot, arktype, …), `{ schema, jsonSchema }`, or a plain JSON Schema. */
export type OutputSchema = SchemaInput;

/** The type of a turn's `output` for this `outputSchema`: the Standard Schema's output, `unknown` for a plain JSON Schema, `undefined` without one. */
export type OutputOf<S> = [S] extends [undefined] ? undefined : SchemaOutput<S>;

/** An `outputSchema` checked once, before the turn starts. */
export interface PreparedOutputSchema {
  /** What codex gets as `outputSchema`. */
  readonly jsonSchema: JsonSchemaObject;
  /** What validates the answer; none for a plain JSON Schema (its answer is only parsed). */
  readonly validator: StandardSchemaV1 | undefined;
}

/** Checks `outputSchema` before anything is sent: a schema codex cannot be given is an InvalidOptionError. */
export function prepareOutputSchema(schema: OutputSchema): PreparedOutputSchema {
  const jsonSchema = jsonSchemaOf(schema);
  if (typeof jsonSchema === "string") throw new InvalidOptionError("outputSchema", jsonSchema);
  return { jsonSchema, validator: standardSchemaOf(schema) };
}
