import { isSchemaObject, type JsonSchema, type JsonSchemaObject } from "../read/json-schema.js";
import type { SchemaBundle, SchemaDefinition } from "../read/schema-bundle.js";

export type Literal = string | number | boolean;

interface ShapeBase {
  /** `null` is accepted besides the rest. */
  readonly nullable: boolean;
  readonly title?: string | undefined;
}

/**
 * What a schema accepts, with annotations dropped and equivalent spellings made one: `type:
 * [T, "null"]` and `anyOf [T, null]` are a nullable T; `enum` and a union of enums are one set of
 * literals; properties beside a union are distributed into each member; a one-member `allOf` is
 * its member. The diff compares these, so a description or a respelling is never a change.
 */
export type Shape =
  | (ShapeBase & { readonly kind: "any" })
  | (ShapeBase & { readonly kind: "never" })
  | (ShapeBase & { readonly kind: "ref"; readonly name: string; readonly definition: SchemaDefinition })
  | (ShapeBase & { readonly kind: "literals"; readonly values: readonly Literal[] })
  | (ShapeBase & { readonly kind: "primitive"; readonly types: readonly string[]; readonly format: string | undefined })
  | (ShapeBase & { readonly kind: "array"; readonly items: Shape })
  | (ShapeBase & { readonly kind: "object"; readonly properties: ReadonlyMap<string, PropertyShape>; readonly extra: Shape | boolean })
  | (ShapeBase & { readonly kind: "union"; readonly members: readonly Shape[] });

export interface PropertyShape {
  readonly shape: Shape;
  readonly required: boolean;
}

/** The name a definition goes by in the output (`v1.Name` for a namespaced v1 twin). */
export function definitionName(def: SchemaDefinition): string {
  return def.namespace ? `${def.namespace}.${def.name}` : def.name;
}

/** The shape of a schema found in `bundle` (for its `$ref`s). */
export function shapeOf(schema: JsonSchema | undefined, bundle: SchemaBundle): Shape {
  if (schema === undefined || schema === true) return { kind: "any", nullable: true };
  if (schema === false || !isSchemaObject(schema)) return { kind: "never", nullable: false };
  const title = typeof schema.title === "string" ? schema.title : undefined;
  const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
  const nullable = (types?.includes("null") ?? false) || (schema.enum?.includes(null) ?? false);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return unionShape(schema, branches, bundle, nullable, title);
  if (typeof schema.$ref === "string") {
    const definition = bundle.resolve(schema.$ref, "");
    return { kind: "ref", name: definitionName(definition), definition, nullable, title };
  }
  if (schema.allOf && schema.allOf.length > 0) {
    const parts = schema.allOf.map((part) => shapeOf(part, bundle));
    const merged = parts.length === 1 ? (parts[0] as Shape) : mergeObjects(parts);
    return { ...merged, nullable: merged.nullable || nullable, title: title ?? merged.title };
  }
  return ownShape(schema, types, bundle, nullable, title);
}

function ownShape(schema: JsonSchemaObject, types: readonly string[] | undefined, bundle: SchemaBundle, nullable: boolean, title: string | undefined): Shape {
  if (schema.enum !== undefined) {
    const values = schema.enum.filter((v): v is Literal => v !== null && typeof v !== "object");
    return values.length > 0 ? { kind: "literals", values, nullable, title } : { kind: "primitive", types: ["null"], format: undefined, nullable: true, title };
  }
  if ("const" in schema && schema.const !== null && typeof schema.const !== "object") {
    return { kind: "literals", values: [schema.const as Literal], nullable, title };
  }
  const solid = types?.filter((t) => t !== "null");
  const isObject = solid ? solid.length === 1 && solid[0] === "object" : schema.properties !== undefined || schema.additionalProperties !== undefined;
  if (isObject) {
    const required = new Set(schema.required ?? []);
    const properties = new Map<string, PropertyShape>();
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      properties.set(name, { shape: shapeOf(property, bundle), required: required.has(name) });
    }
    const extra = schema.additionalProperties;
    return {
      kind: "object",
      properties,
      extra: extra === undefined || typeof extra === "boolean" ? extra !== false : shapeOf(extra, bundle),
      nullable,
      title,
    };
  }
  if (solid?.length === 1 && solid[0] === "array") {
    const items = Array.isArray(schema.items) ? { anyOf: schema.items } : schema.items;
    return { kind: "array", items: shapeOf(items, bundle), nullable, title };
  }
  if (solid && solid.length > 0) {
    const format = typeof schema.format === "string" ? schema.format : undefined;
    return { kind: "primitive", types: [...solid].sort(), format, nullable, title };
  }
  if (solid && solid.length === 0) return { kind: "primitive", types: ["null"], format: undefined, nullable: true, title };
  return { kind: "any", nullable: true, title };
}

function unionShape(schema: JsonSchemaObject, branches: readonly JsonSchema[], bundle: SchemaBundle, nullable: boolean, title: string | undefined): Shape {
  const { anyOf: _a, oneOf: _o, ...rest } = schema;
  const own = schema.properties || schema.type ? ownShape(rest, rest.type === undefined ? undefined : [rest.type].flat(), bundle, false, undefined) : undefined;
  let members = branches.map((branch) => shapeOf(branch, bundle));
  const isNull = (m: Shape) => m.kind === "primitive" && m.types.length === 1 && m.types[0] === "null";
  if (members.some(isNull) || members.some((m) => m.nullable && m.kind !== "any")) nullable = true;
  // A union inside a union is one union (a distributed `{properties, anyOf}` member, say).
  members = members.flatMap((m) => (m.kind === "union" ? m.members : [m]));
  members = members.filter((m) => !isNull(m)).map((m) => (m.kind === "any" ? m : { ...m, nullable: false }));
  if (own?.kind === "object") {
    // `{properties, anyOf}`: each member carries the shared properties (the emitter's `{…} & (A | B)`).
    members = members.map((m) => (m.kind === "object" ? mergeObjects([own, m]) : m));
  }
  if (members.length > 0 && members.every((m) => m.kind === "literals")) {
    const values = [...new Set(members.flatMap((m) => (m.kind === "literals" ? m.values : [])))];
    return { kind: "literals", values, nullable, title };
  }
  if (members.length === 1) {
    const only = members[0] as Shape;
    return { ...only, nullable: nullable || only.nullable, title: only.title ?? title };
  }
  return { kind: "union", members, nullable, title };
}

function mergeObjects(parts: readonly Shape[]): Shape {
  const properties = new Map<string, PropertyShape>();
  let extra: Shape | boolean = true;
  let title: string | undefined;
  for (const part of parts) {
    if (part.kind !== "object") return part;
    for (const [name, property] of part.properties) properties.set(name, property);
    if (part.extra !== true) extra = part.extra;
    title = part.title ?? title;
  }
  return { kind: "object", properties, extra, nullable: false, title };
}

/** A short description for messages: `string | null`, `Array<Thread>`, `"a" | "b"`. */
export function describeShape(shape: Shape): string {
  const text = describeSolid(shape);
  return shape.nullable && shape.kind !== "any" ? `${text} | null` : text;
}

function describeSolid(shape: Shape): string {
  switch (shape.kind) {
    case "any":
      return "any JSON";
    case "never":
      return "never";
    case "ref":
      return shape.name;
    case "literals": {
      const shown = shape.values.slice(0, 4).map((v) => JSON.stringify(v));
      return shape.values.length > 4 ? `${shown.join(" | ")} | … (${shape.values.length} values)` : shown.join(" | ");
    }
    case "primitive":
      return shape.types.join(" | ") + (shape.format ? ` (${shape.format})` : "");
    case "array":
      return `Array<${describeShape(shape.items)}>`;
    case "object":
      return (
        shape.title ??
        (shape.properties.size === 0 ? "object" : `{ ${[...shape.properties.keys()].slice(0, 3).join(", ")}${shape.properties.size > 3 ? ", …" : ""} }`)
      );
    case "union":
      return shape.title ?? `union of ${shape.members.length}`;
  }
}
