import type { McpServerElicitationRequestResponse } from "@codex-rpc/protocol";
import { InvalidHandlerResultError } from "../errors/errors.js";
import type { ServerRequestContext } from "../rpc/json-rpc-connection.js";
import { isRecord } from "../util/is-record.js";
import { answerByPolicy } from "./approval-answer.js";
import { offeredPersistence, type ApprovalPolicy } from "./approval-response.js";

const METHOD = "mcpServer/elicitation/request";

/** The `elicitations` option as the dispatcher keeps it: untyped (the client's options type it by protocol). */
export type UntypedElicitationHandler = (params: unknown, context: ServerRequestContext) => unknown;

/**
 * Answers `mcpServer/elicitation/request`. An elicitation that asks yes or no (an empty form, which
 * is how codex asks before it runs an MCP tool) is an approval: the `approvals` policy answers it.
 * One that asks for content (a form with fields, or a URL to open) goes to the `elicitations`
 * handler, whose answer is checked against what was asked; without one it is declined.
 */
export async function answerElicitation(
  policy: ApprovalPolicy,
  handler: UntypedElicitationHandler | undefined,
  params: unknown,
  context: ServerRequestContext,
): Promise<McpServerElicitationRequestResponse> {
  if (!asksForContent(params)) return (await answerByPolicy(policy, METHOD, params, context.signal)) as McpServerElicitationRequestResponse;
  if (!handler) return { action: "decline" };
  const answer = await handler(params, context);
  checkElicitationAnswer(params, answer);
  return answer;
}

/** Whether an elicitation asks for something the user must give: a URL to visit, or a form with at least one field. */
export function asksForContent(params: unknown): boolean {
  const { mode, requestedSchema } = (typeof params === "object" && params !== null ? params : {}) as { mode?: unknown; requestedSchema?: unknown };
  if (mode === "url") return true;
  return Object.keys(propertiesOf(requestedSchema)).length > 0;
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  const properties = isRecord(schema) ? schema.properties : undefined;
  return isRecord(properties) ? properties : {};
}

const ACTIONS: ReadonlySet<unknown> = new Set(["accept", "decline", "cancel"]);

/**
 * Throws InvalidHandlerResultError unless `answer` is an elicitation response the request allows:
 * a known action; `_meta.persist` only as the request offers it; for an accepted form, content with
 * every required field and only the fields asked for, each of the type (and among the options) its
 * schema names. Messages name fields and types, never the values (a form may ask for a secret).
 */
export function checkElicitationAnswer(params: unknown, answer: unknown): asserts answer is McpServerElicitationRequestResponse {
  const fail = (detail: string): never => {
    throw new InvalidHandlerResultError(METHOD, detail);
  };
  if (!isRecord(answer)) return fail("the elicitation handler must return { action, content? }");
  if (!ACTIONS.has(answer.action)) return fail(`the action must be "accept", "decline" or "cancel"`);
  const persist = isRecord(answer._meta) ? answer._meta.persist : undefined;
  if (persist !== undefined && !(typeof persist === "string" && offeredPersistence(params).includes(persist))) {
    const offered = offeredPersistence(params);
    fail(`_meta.persist must be one the elicitation offers (${offered.length > 0 ? offered.join(", ") : "none"})`);
  }
  if (answer.action !== "accept" || (params as { mode?: unknown }).mode === "url") return;
  const schema = (params as { requestedSchema?: unknown }).requestedSchema;
  const content = answer.content;
  if (!isRecord(content)) return fail("an accepted form needs `content`, an object of the requested fields");
  const properties = propertiesOf(schema);
  const required = isRecord(schema) && Array.isArray(schema.required) ? schema.required : [];
  // Own properties only: a field named `constructor` or `__proto__` is no inherited member.
  const missing = required.filter((name) => typeof name === "string" && (!Object.hasOwn(content, name) || content[name] === undefined));
  if (missing.length > 0) fail(`the form's required fields ${missing.join(", ")} are missing from content`);
  for (const [name, value] of Object.entries(content)) {
    const field = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!isRecord(field)) return fail(`content has a field "${name.slice(0, 50)}" the form did not ask for`);
    const problem = fieldProblem(field, value);
    if (problem) fail(`content field "${name}" ${problem}`);
  }
}

/** What is wrong with one field's value under its primitive schema (MCP 2025-11-25), or undefined. */
function fieldProblem(field: Record<string, unknown>, value: unknown): string | undefined {
  const choices = choicesOf(field);
  switch (field.type) {
    case "string":
      if (typeof value !== "string") return "must be a string";
      if (choices && !choices.includes(value)) return "must be one of the form's options";
      return undefined;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? undefined : "must be a number";
    case "integer":
      return Number.isInteger(value) ? undefined : "must be an integer";
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be a boolean";
    case "array": {
      if (!Array.isArray(value) || !value.every((entry) => typeof entry === "string")) return "must be an array of strings";
      const items = isRecord(field.items) ? choicesOf(field.items) : undefined;
      return items && !value.every((entry) => items.includes(entry)) ? "must hold only the form's options" : undefined;
    }
    default:
      return undefined;
  }
}

/** The allowed values of an enum schema (`enum`, or the `const` of `oneOf` / `anyOf` options). */
function choicesOf(schema: Record<string, unknown>): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  return options?.map((option: unknown) => (isRecord(option) ? option.const : undefined));
}
