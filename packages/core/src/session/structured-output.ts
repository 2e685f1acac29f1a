// A turn's structured output: `outputSchema` (a Standard Schema, `{ schema, jsonSchema }` or a plain
// JSON Schema) goes to codex as `turn/start`'s `outputSchema` (codex 0.169.0 hands it to the model
// as `text.format: { type: "json_schema", strict: true, name: "codex_output_schema", schema }`, for
// that turn only); the turn's final agent message is then parsed as JSON and validated.
import { InvalidOptionError } from "../errors/errors.js";
import { OutputValidationError } from "../errors/turn-errors.js";
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

/** How a completed turn's final message fared against its schema. */
export type StructuredOutcome =
  | { readonly output: unknown; readonly outputError?: undefined }
  | { readonly output?: undefined; readonly outputError: OutputValidationError };

/** Parses and validates the final message of a turn that had an `outputSchema`. Never throws. */
export async function parseStructuredOutput(
  prepared: PreparedOutputSchema,
  turn: { readonly id: string; readonly status: string; readonly finalText: string; readonly finalTextComplete: boolean; readonly hasFinalMessage: boolean },
): Promise<StructuredOutcome> {
  const fail = (reason: OutputValidationError["reason"], detail: string, issues: OutputValidationError["issues"] = []) => ({
    outputError: new OutputValidationError(turn.id, reason, issues, detail),
  });
  if (turn.status !== "completed") return fail("no-output", `is missing: the turn ended ${turn.status}`);
  if (!turn.hasFinalMessage) return fail("no-output", "is missing: the turn has no agent message");
  if (!turn.finalTextComplete) return fail("no-output", "is missing: the last agent message never completed");
  let value: unknown;
  try {
    value = JSON.parse(turn.finalText);
  } catch {
    // Not the parser's message: it quotes the text, which is in `finalText` for whoever wants it.
    return fail("invalid-json", "is not JSON");
  }
  if (prepared.validator === undefined) return { output: value };
  try {
    const result = await prepared.validator["~standard"].validate(value);
    if (result.issues !== undefined) return fail("schema", "does not match the schema", result.issues);
    return { output: result.value };
  } catch (error) {
    return fail("schema", `could not be validated: the schema threw ${error instanceof Error ? error.message : String(error)}`);
  }
}
