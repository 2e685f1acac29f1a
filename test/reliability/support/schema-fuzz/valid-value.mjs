// A valid value for a JSON Schema of the vendored protocol bundle: required fields only, with
// plausible values, and the ids that routing uses (threadId, turnId, itemId, thread.id, turn.id,
// item.id) set to placeholders that the caller replaces with a live turn's ids (and `delta` texts
// to a placeholder the caller replaces with a marker it can recognise on `turn.text$`). Shared by the
// schema fuzzer (test/reliability/schema-fuzz.test.ts) and tools/malformed-turns.mjs.

/** Stand-ins for the live ids, replaced in the encoded line (plain ASCII: no JSON escaping needed). */
export const ID_PLACEHOLDERS = Object.freeze({ thread: "@@fuzz-thread@@", turn: "@@fuzz-turn@@", item: "@@fuzz-item@@", text: "@@fuzz-text@@" });

/** Property name → the live id it routes by. */
const ROUTING_KEYS = Object.freeze({ threadId: ID_PLACEHOLDERS.thread, turnId: ID_PLACEHOLDERS.turn, itemId: ID_PLACEHOLDERS.item });
/** `<parent>.id` → the live id (a Thread, Turn or ThreadItem object under that key). */
const ROUTING_PARENTS = Object.freeze({ thread: ID_PLACEHOLDERS.thread, turn: ID_PLACEHOLDERS.turn, item: ID_PLACEHOLDERS.item });
/** Of a union's variants, the live turn's item is an agent message: prefer that variant where offered. */
const PREFERRED_DISCRIMINATORS = new Set(["agentMessage"]);

/**
 * Generates a value from `schema` (refs resolved in `definitions`). `choices` picks the variant of a
 * union by its path ("a/b" → index among the non-null variants); the caller searches choices when
 * the first pick does not validate (e.g. a oneOf whose first variant also matches a later one).
 * Returns the value, every field it set (for mutations) and every union it passed through.
 */
export function validValue(schema, definitions, choices = new Map()) {
  const fields = [];
  const unions = [];
  const value = generate(schema, [], undefined);
  return { value, fields, unions };

  function generate(node, path, parentKey) {
    const resolved = resolve(node, definitions);
    if (resolved === true || resolved === undefined || resolved === null) return {};
    if (resolved.allOf) {
      const parts = resolved.allOf.map((part) => generate(part, path, parentKey));
      const base = hasOwnShape(resolved) ? generate(withoutKey(resolved, "allOf"), path, parentKey) : undefined;
      return mergeAll(base === undefined ? parts : [base, ...parts]);
    }
    const union = resolved.oneOf ?? resolved.anyOf;
    if (union) {
      const variants = union.filter((variant) => !isNullOnly(resolve(variant, definitions)));
      if (variants.length === 0) return null;
      const key = path.join("/");
      unions.push({ key, count: variants.length });
      const preferred = variants.findIndex((variant) => PREFERRED_DISCRIMINATORS.has(discriminatorOf(resolve(variant, definitions), definitions)));
      const index = choices.get(key) ?? Math.max(0, preferred);
      const picked = generate(variants[index % variants.length], path, parentKey);
      if (!hasOwnShape(resolved)) return picked;
      const base = generate(withoutKey(withoutKey(resolved, "oneOf"), "anyOf"), path, parentKey);
      return mergeAll([base, picked]);
    }
    if (resolved.enum) return resolved.enum[0];
    if ("const" in resolved) return resolved.const;
    const type = primaryType(resolved);
    switch (type) {
      case "string": {
        const key = path.at(-1);
        if (key !== undefined && Object.hasOwn(ROUTING_KEYS, key)) return ROUTING_KEYS[key];
        if (key === "id" && parentKey !== undefined && Object.hasOwn(ROUTING_PARENTS, parentKey)) return ROUTING_PARENTS[parentKey];
        if (key === "delta") return ID_PLACEHOLDERS.text;
        return `${key ?? "value"}-v`;
      }
      case "integer":
        return Math.max(typeof resolved.minimum === "number" ? resolved.minimum : 0, 1);
      case "number":
        return Math.max(typeof resolved.minimum === "number" ? resolved.minimum : 0, 1.5);
      case "boolean":
        return false;
      case "array":
        return [];
      case "null":
        return null;
      case "object": {
        const out = {};
        const properties = resolved.properties ?? {};
        const required = new Set(resolved.required ?? []);
        for (const key of Object.keys(properties)) {
          const routing = Object.hasOwn(ROUTING_KEYS, key) && allowsType(properties[key], "string", definitions);
          if (!required.has(key) && !routing) continue;
          const fieldPath = [...path, key];
          out[key] = generate(properties[key], fieldPath, path.at(-1));
          fields.push({
            path: fieldPath,
            required: required.has(key),
            types: jsonTypesOf(properties[key], definitions),
            enum: enumOf(properties[key], definitions),
          });
        }
        return out;
      }
      default:
        return {};
    }
  }
}

/** Follows `$ref`s ("#/definitions/Name") to the schema they name. */
export function resolve(node, definitions) {
  let current = node;
  for (let hops = 0; current && typeof current === "object" && typeof current.$ref === "string" && hops < 64; hops++) {
    current = definitions[current.$ref.replace(/^#\/definitions\//, "")];
  }
  return current;
}

/** The JSON types a schema admits (through refs, allOf and unions); empty when it admits any. */
export function jsonTypesOf(node, definitions, depth = 0) {
  const resolved = resolve(node, definitions);
  if (!resolved || typeof resolved !== "object" || depth > 16) return [];
  const types = new Set();
  if (resolved.type !== undefined) for (const type of [resolved.type].flat()) types.add(type === "integer" ? "integer" : type);
  if (resolved.enum) for (const value of resolved.enum) types.add(value === null ? "null" : typeof value === "string" ? "string" : typeof value);
  for (const part of [...(resolved.allOf ?? [])]) for (const type of jsonTypesOf(part, definitions, depth + 1)) types.add(type);
  for (const variant of [...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])]) {
    const inner = jsonTypesOf(variant, definitions, depth + 1);
    if (inner.length === 0) return [];
    for (const type of inner) types.add(type);
  }
  if (types.size === 0 && resolved.properties) types.add("object");
  return [...types];
}

/** The string values of an enum field (through refs, allOf and a nullable union), or undefined. */
export function enumOf(node, definitions, depth = 0) {
  const resolved = resolve(node, definitions);
  if (!resolved || typeof resolved !== "object" || depth > 16) return undefined;
  if (resolved.enum) return resolved.enum.filter((value) => typeof value === "string");
  for (const part of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])]) {
    const inner = enumOf(part, definitions, depth + 1);
    if (inner && inner.length > 0) return inner;
  }
  return undefined;
}

function allowsType(node, type, definitions) {
  const types = jsonTypesOf(node, definitions);
  return types.length === 0 || types.includes(type);
}

function primaryType(schema) {
  if (schema.type === undefined) return schema.properties ? "object" : undefined;
  const types = [schema.type].flat();
  return types.find((type) => type !== "null") ?? "null";
}

function isNullOnly(schema) {
  return (
    schema && typeof schema === "object" && (schema.type === "null" || (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null))
  );
}

function discriminatorOf(schema, definitions) {
  const type = schema && typeof schema === "object" ? resolve(schema.properties?.type, definitions) : undefined;
  return Array.isArray(type?.enum) && type.enum.length === 1 ? type.enum[0] : undefined;
}

function hasOwnShape(schema) {
  return schema.properties !== undefined || schema.type !== undefined;
}

function withoutKey(schema, key) {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

function mergeAll(parts) {
  const objects = parts.filter((part) => part !== null && typeof part === "object" && !Array.isArray(part));
  if (objects.length !== parts.length) return parts.at(-1);
  return Object.assign({}, ...objects);
}
