import { describeThrown } from "../util/describe-value.js";
import { isRecord } from "../util/is-record.js";
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
  let result: StandardSchemaV1.Result<unknown>;
  try {
    result = await validator.validate(args);
  } catch (error) {
    return { ok: false, message: `Invalid arguments for tool "${label}": the ${validator.vendor} validator failed: ${describeThrown(error)}` };
  }
  if (!isRecord(result)) return { ok: false, message: `Invalid arguments for tool "${label}": the ${validator.vendor} validator gave no result` };
  if (!result.issues) return { ok: true, value: (result as StandardSchemaV1.SuccessResult<unknown>).value };
  const issues = [...result.issues];
  const lines = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = pathOf(issue.path);
    return `- ${path === "" ? "" : `${path}: `}${String(issue.message)}`;
  });
  if (issues.length > MAX_ISSUES) lines.push(`- and ${issues.length - MAX_ISSUES} more`);
  return { ok: false, message: `Invalid arguments for tool "${label}"; fix them and call it again:\n${lines.join("\n")}` };
}

/** `a.b[0].c` from an issue's path (keys or `{ key }` segments). */
function pathOf(path: StandardSchemaV1.Issue["path"]): string {
  let text = "";
  for (const segment of path ?? []) {
    const key = isRecord(segment) ? (segment as StandardSchemaV1.PathSegment).key : segment;
    if (typeof key === "number") text += `[${key}]`;
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text;
}
