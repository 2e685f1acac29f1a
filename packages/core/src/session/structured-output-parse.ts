// A turn's structured output parsed and validated: loaded on demand (import()) when a turn with an
// `outputSchema` ends, so a page whose turns have none does not carry it.
import { OutputValidationError } from "../errors/output-validation-error.js";
import { describeThrown } from "../util/describe-value.js";
import { readStandardResult } from "../util/standard-result.js";
import type { PreparedOutputSchema } from "./structured-output.js";

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
    const read = readStandardResult(await prepared.validator["~standard"].validate(value));
    if (read === undefined) return fail("schema", "could not be validated: the validator gave no result");
    if ("value" in read) return { output: read.value };
    // Issues that are no array (null, a number) still say it failed, with nothing to list.
    return fail("schema", "does not match the schema", (Array.isArray(read.issues) ? read.issues : []) as OutputValidationError["issues"]);
  } catch (error) {
    // describeThrown: a thrown Object.create(null), or an Error whose message getter throws, has no text of its own.
    return fail("schema", `could not be validated: the schema threw ${describeThrown(error)}`);
  }
}
