import { isRecord } from "../util/is-record.js";
import type { StandardSchemaV1 } from "../util/standard-schema.js";

/** How deep a schema is followed; deeper parts are not checked. */
const MAX_DEPTH = 32;

type Issue = StandardSchemaV1.Issue;

/**
 * A Standard Schema validator for a tool declared with plain JSON Schema: it checks the keywords
 * that say what a value is (`type`, `enum`, `const`, `properties`, `required`,
 * `additionalProperties`, `items`, `anyOf`, `oneOf`, `allOf`, the bounds of numbers, strings and
 * arrays, `pattern`) and lets everything else pass (`$ref`, `format`, `if`/`then`, … are not
 * followed). It refuses only what the schema clearly rules out, so a schema it reads partly never
 * blocks a call codex would take.
 */
export function jsonSchemaValidator(schema: unknown): StandardSchemaV1["~standard"] {
  return {
    version: 1,
    vendor: "json-schema",
    validate: (value) => {
      const issues: Issue[] = [];
      check(schema, value, [], issues, 0);
      return issues.length === 0 ? { value } : { issues };
    },
  };
}

function check(schema: unknown, value: unknown, path: readonly PropertyKey[], issues: Issue[], depth: number): void {
  if (schema === false) {
    issues.push({ message: "No value is allowed here", path });
    return;
  }
  if (!isRecord(schema) || depth > MAX_DEPTH) return;
  const before = issues.length;
  checkType(schema, value, path, issues);
  if (issues.length > before) return; // the rest would only repeat that the type is wrong
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value))) {
    issues.push({ message: `Expected one of ${schema.enum.map((option) => JSON.stringify(option)).join(", ")}`, path });
  }
  if ("const" in schema && !sameJson(schema.const, value)) issues.push({ message: `Expected ${JSON.stringify(schema.const)}`, path });
  if (typeof value === "number") checkNumber(schema, value, path, issues);
  if (typeof value === "string") checkString(schema, value, path, issues);
  if (Array.isArray(value)) checkArray(schema, value, path, issues, depth);
  if (isRecord(value)) checkObject(schema, value, path, issues, depth);
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) check(part, value, path, issues, depth + 1);
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const options = schema[keyword];
    if (!Array.isArray(options) || options.length === 0) continue;
    const matching = options.filter((option) => {
      const trial: Issue[] = [];
      check(option, value, path, trial, depth + 1);
      return trial.length === 0;
    }).length;
    // oneOf with several matches is left alone: telling the model so would not help it.
    if (matching === 0) issues.push({ message: `Matches none of the ${options.length} allowed shapes (${keyword})`, path });
  }
}

function checkType(schema: Record<string, unknown>, value: unknown, path: readonly PropertyKey[], issues: Issue[]): void {
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type.filter((t) => typeof t === "string") : [];
  if (types.length === 0 || types.some((type) => hasType(type, value))) return;
  issues.push({ message: `Expected ${types.join(" or ")}, received ${typeName(value)}`, path });
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "string":
    case "boolean":
      return typeof value === type;
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    default:
      return true; // a type this check does not know: not ours to refuse
  }
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

function checkNumber(schema: Record<string, unknown>, value: number, path: readonly PropertyKey[], issues: Issue[]): void {
  const bound = (keyword: string, fails: (limit: number) => boolean, says: string) => {
    const limit = schema[keyword];
    if (typeof limit === "number" && fails(limit)) issues.push({ message: `Expected a number ${says} ${limit}`, path });
  };
  bound("minimum", (limit) => value < limit, ">=");
  bound("maximum", (limit) => value > limit, "<=");
  bound("exclusiveMinimum", (limit) => value <= limit, ">");
  bound("exclusiveMaximum", (limit) => value >= limit, "<");
  const step = schema.multipleOf;
  if (typeof step === "number" && step > 0 && !Number.isInteger(value / step)) issues.push({ message: `Expected a multiple of ${step}`, path });
}

function checkString(schema: Record<string, unknown>, value: string, path: readonly PropertyKey[], issues: Issue[]): void {
  const length = [...value].length;
  if (typeof schema.minLength === "number" && length < schema.minLength) issues.push({ message: `Expected at least ${schema.minLength} characters`, path });
  if (typeof schema.maxLength === "number" && length > schema.maxLength) issues.push({ message: `Expected at most ${schema.maxLength} characters`, path });
  if (typeof schema.pattern === "string") {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(schema.pattern, "u");
    } catch {
      pattern = undefined; // a pattern JavaScript cannot read is not checked
    }
    if (pattern && !pattern.test(value)) issues.push({ message: `Expected to match ${schema.pattern}`, path });
  }
}

function checkArray(schema: Record<string, unknown>, value: readonly unknown[], path: readonly PropertyKey[], issues: Issue[], depth: number): void {
  if (typeof schema.minItems === "number" && value.length < schema.minItems) issues.push({ message: `Expected at least ${schema.minItems} items`, path });
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems) issues.push({ message: `Expected at most ${schema.maxItems} items`, path });
  if (schema.items !== undefined && !Array.isArray(schema.items)) {
    for (const [index, item] of value.entries()) check(schema.items, item, [...path, index], issues, depth + 1);
  }
}

function checkObject(schema: Record<string, unknown>, value: Record<string, unknown>, path: readonly PropertyKey[], issues: Issue[], depth: number): void {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === "string" && !Object.hasOwn(value, key)) issues.push({ message: "Required", path: [...path, key] });
    }
  }
  for (const [key, item] of Object.entries(value)) {
    if (Object.hasOwn(properties, key)) check(properties[key], item, [...path, key], issues, depth + 1);
    else if (schema.additionalProperties === false && !isRecord(schema.patternProperties)) issues.push({ message: "Unknown property", path: [...path, key] });
    else if (isRecord(schema.additionalProperties) && !isRecord(schema.patternProperties))
      check(schema.additionalProperties, item, [...path, key], issues, depth + 1);
  }
}

/** JSON equality (object key order aside). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  return false;
}
