// A turn's structured output that does not fit its schema: a module of its own, so that only the
// on-demand parser of structured output (and the entries) carry it and the schema issues' wording.
import { excerptOf } from "../util/describe-value.js";
import type { StandardSchemaV1 } from "../util/standard-schema.js";
import { issueLines } from "../util/schema-issues.js";
import { CodexRpcError } from "./errors.js";

/**
 * The structured output of a turn with an `outputSchema` could not be had: the turn did not
 * complete with a final message (`reason: "no-output"`), the message is not JSON (`"invalid-json"`)
 * or it does not satisfy the schema (`"schema"`, with the schema library's `issues`). The text
 * itself is in the completed turn's `finalText`, not here.
 */
export class OutputValidationError extends CodexRpcError {
  override name = "OutputValidationError";
  constructor(
    readonly turnId: string,
    readonly reason: "no-output" | "invalid-json" | "schema",
    readonly issues: readonly StandardSchemaV1.Issue[],
    detail: string,
  ) {
    super("OUTPUT_INVALID", `turn ${excerptOf(turnId)}: the structured output ${detail}${describeIssues(issues)}`);
  }
}

function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  if (issues.length === 0) return "";
  const shown = issueLines(issues, 3);
  const rest = issues.length > 3 ? ` (${shown.pop()})` : "";
  return `: ${shown.join("; ")}${rest}`;
}
