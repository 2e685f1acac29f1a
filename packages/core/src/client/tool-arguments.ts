import { describeThrown } from "../util/describe-value.js";
import { issueLines } from "../util/schema-issues.js";
import { readStandardResult } from "../util/standard-result.js";
import type { StandardSchemaV1 } from "../util/standard-schema.js";

/** How many issues the model is told about; the rest are counted. */
const MAX_ISSUES = 10;

/** The arguments as the schema's output, or a text the model can act on. */
export type ToolArgumentsCheck = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/**
 * Validates a call's arguments with a tool's Standard Schema. A failure is text for the model,
 * one line per issue with its path (`items[0].city: Expected string`); a validator that throws
 * counts as a failure too.
 */
export async function checkToolArguments(label: string, validator: StandardSchemaV1["~standard"], args: unknown): Promise<ToolArgumentsCheck> {
  const invalid = (why: string): ToolArgumentsCheck => ({
    ok: false,
    message: `Invalid arguments for tool "${label}": the ${validator.vendor} validator ${why}`,
  });
  let result: unknown;
  try {
    result = await validator.validate(args);
  } catch (error) {
    return invalid(`failed: ${describeThrown(error)}`);
  }
  try {
    const read = readStandardResult(result);
    // No answer: the handler never runs on it.
    if (read === undefined) return invalid("gave no result");
    if ("value" in read) return { ok: true, value: read.value };
    const lines = issueLines(read.issues, MAX_ISSUES).map((line) => `- ${line}`);
    if (lines.length === 0) return invalid("refused them without saying why");
    return { ok: false, message: `Invalid arguments for tool "${label}"; fix them and call it again:\n${lines.join("\n")}` };
  } catch (error) {
    // A getter that throws, a message that cannot become a string: still an answer the model reads.
    return invalid(`gave a result that could not be read: ${describeThrown(error)}`);
  }
}
