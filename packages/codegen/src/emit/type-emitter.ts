import { CodegenError } from "../util/codegen-error.js";
import {
  ANNOTATION_KEYWORDS,
  CONSTRAINT_KEYWORDS,
  STRUCTURAL_KEYWORDS,
  isSchemaObject,
  pointerSegment,
  type JsonSchema,
  type JsonSchemaObject,
  type JsonSchemaTypeName,
} from "../read/json-schema.js";
import type { ProtocolMethod } from "../analyse/protocol-methods.js";
import type { SchemaBundle, SchemaDefinition } from "../read/schema-bundle.js";
import {
  keyword,
  literal,
  property,
  reference,
  type Declaration,
  type Node,
  type PropertySignature,
  type TypeNode,
  type TypeReference,
} from "../nodes/type-nodes.js";

/** The type emitted for schemas that accept any JSON value (description-only or empty schemas). */
export const JSON_VALUE = "JsonValue";

/** Who writes a value: decides whether a nullable or defaulted field may be left out. */
type Writer = "server" | "client";

interface Position {
  readonly pointer: string;
  readonly writer: Writer;
}

/**
 * Turns schema definitions into TypeScript declarations (type-nodes.ts; declaration-printer.ts prints them).
 * One instance serves one bundle; `clientWritten` names the definitions a client may write.
 */
export class TypeEmitter {
  private readonly envelopeMethods: ReadonlyMap<string, ProtocolMethod>;
  private readonly nullableCache = new Map<SchemaDefinition, boolean>();

  constructor(
    private readonly bundle: SchemaBundle,
    private readonly clientWritten: ReadonlySet<SchemaDefinition>,
    methods: readonly ProtocolMethod[],
  ) {
    this.envelopeMethods = new Map(methods.map((m) => [m.variantPointer, m]));
  }

  /** `export type JsonValue = …` followed by one declaration per definition. */
  declarations(): Declaration[] {
    const flat: Declaration[] = [jsonValueDeclaration()];
    const v1: Declaration[] = [];
    for (const def of this.bundle.definitions) {
      const writer: Writer = this.clientWritten.has(def) ? "client" : "server";
      const type = this.typeOf(def.schema, { pointer: def.pointer, writer });
      const alias = withDoc<Declaration>({ kind: "typeAlias", name: def.name, type }, isSchemaObject(def.schema) ? def.schema.description : undefined);
      (def.namespace === "v1" ? v1 : flat).push(alias);
    }
    if (v1.length > 0) {
      const namespace = withDoc<Declaration>({ kind: "namespace", name: "v1", body: v1 }, "Root-level (v1) definitions whose names v2 defines differently.");
      flat.push(namespace);
    }
    return flat;
  }

  /** The reference to a definition as code outside `types.d.ts` sees it, e.g. `T.Thread`. */
  referenceTo(def: SchemaDefinition, qualifier?: string): TypeReference {
    return typeReference(def, qualifier);
  }

  /**
   * The params of a method as its map entry and envelope show them. A message whose params are
   * optional is sent without them, never with `null`: `{type: "null"}` becomes `undefined` and an
   * `anyOf [X, null]` becomes an optional `X`.
   */
  paramsOf(method: ProtocolMethod, qualifier?: string): { type: TypeNode; optional: boolean } {
    const params = method.params;
    if (!params) return { type: keyword("undefined"), optional: true };
    const writer: Writer = method.kind === "serverNotification" || method.kind === "serverRequest" ? "server" : "client";
    if (params.required) return { type: this.typeOf(params.schema, { pointer: params.pointer, writer }, qualifier), optional: false };
    const schema = params.schema;
    if (isSchemaObject(schema) && schema.type === "null" && !schema.anyOf && !schema.oneOf && !schema.$ref) {
      return { type: keyword("undefined"), optional: true };
    }
    if (method.paramsDefinition) return { type: typeReference(method.paramsDefinition, qualifier), optional: true };
    return { type: this.typeOf(schema, { pointer: params.pointer, writer }, qualifier), optional: true };
  }

  /** The TypeScript type of one schema. `qualifier` prefixes definition references (`T.Name`). */
  typeOf(schema: JsonSchema, at: Position, qualifier?: string): TypeNode {
    if (schema === true) return jsonValue(qualifier);
    if (schema === false) return keyword("never");
    if (!isSchemaObject(schema)) this.fail("a schema must be an object or a boolean", at.pointer);
    this.checkKeywords(schema, at.pointer);

    const parts: TypeNode[] = [];
    if (schema.$ref !== undefined) {
      if (typeof schema.$ref !== "string") this.fail("$ref must be a string", `${at.pointer}/$ref`);
      parts.push(typeReference(this.bundle.resolve(schema.$ref, `${at.pointer}/$ref`), qualifier));
    }
    for (const key of ["allOf"] as const) {
      const members = this.members(schema, key, at, qualifier);
      if (members) parts.push(...members);
    }
    const own = this.ownType(schema, at, qualifier);
    if (own) parts.push(own);
    for (const key of ["anyOf", "oneOf"] as const) {
      const members = this.members(schema, key, at, qualifier);
      if (members) parts.push(unionOf(members));
    }
    if (parts.length === 0) return jsonValue(qualifier);
    return intersectionOf(parts);
  }

  /** What `type`, `enum`, `const`, `properties` and `items` say, or nothing if none is present. */
  private ownType(schema: JsonSchemaObject, at: Position, qualifier?: string): TypeNode | undefined {
    if (schema.enum !== undefined) {
      if (!Array.isArray(schema.enum) || schema.enum.length === 0) this.fail("enum must be a non-empty array", `${at.pointer}/enum`);
      return unionOf(schema.enum.map((value, index) => this.literalOf(value, `${at.pointer}/enum/${index}`)));
    }
    if ("const" in schema) return this.literalOf(schema.const, `${at.pointer}/const`);
    const types = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types === undefined) {
      // Properties without `type` still describe an object (codex writes these for flattened enums).
      return schema.properties || schema.additionalProperties !== undefined ? this.objectType(schema, at, qualifier) : undefined;
    }
    if (types.length === 0) this.fail("type must name at least one type", `${at.pointer}/type`);
    // Beside other types, a bare `object` is a catch-all (any object), not a struct without fields.
    const objectIsOpen = types.length > 1;
    return unionOf(types.map((name, index) => this.typeNamed(name, schema, at, qualifier, `${at.pointer}/type/${index}`, objectIsOpen)));
  }

  private typeNamed(
    name: JsonSchemaTypeName,
    schema: JsonSchemaObject,
    at: Position,
    qualifier: string | undefined,
    pointer: string,
    objectIsOpen: boolean,
  ): TypeNode {
    switch (name) {
      case "string":
        return keyword("string");
      case "integer":
      case "number":
        // Every Rust integer format (int32 … uint64) is a JSON number; the validators check ranges.
        return keyword("number");
      case "boolean":
        return keyword("boolean");
      case "null":
        return literal(null);
      case "array":
        return this.arrayType(schema, at, qualifier);
      case "object":
        return this.objectType(schema, at, qualifier, objectIsOpen);
      default:
        return this.fail(`unknown type "${String(name)}"`, pointer);
    }
  }

  private arrayType(schema: JsonSchemaObject, at: Position, qualifier?: string): TypeNode {
    const items = schema.items;
    if (items === undefined) return reference("Array", [jsonValue(qualifier)]);
    if (Array.isArray(items)) {
      return {
        kind: "tuple",
        elements: items.map((item, index) => this.typeOf(item, { ...at, pointer: `${at.pointer}/items/${index}` }, qualifier)),
      };
    }
    return reference("Array", [this.typeOf(items, { ...at, pointer: `${at.pointer}/items` }, qualifier)]);
  }

  private objectType(schema: JsonSchemaObject, at: Position, qualifier?: string, open = false): TypeNode {
    const envelope = this.envelopeMethods.get(at.pointer);
    const required = new Set(schema.required ?? []);
    const members: PropertySignature[] = [];
    const properties = schema.properties ?? {};
    if (!isSchemaObject(properties)) this.fail("properties must be an object", `${at.pointer}/properties`);
    for (const [name, propertySchema] of Object.entries(properties)) {
      const pointer = `${at.pointer}/properties/${pointerSegment(name)}`;
      let type: TypeNode;
      let optional: boolean;
      if (envelope && name === "params") {
        ({ type, optional } = this.paramsOf(envelope, qualifier));
      } else {
        type = this.typeOf(propertySchema, { ...at, pointer }, qualifier);
        optional = !required.has(name) && !(at.writer === "server" && this.alwaysWritten(propertySchema));
      }
      const signature = property(name, type, { quoted: !isIdentifierName(name), optional });
      members.push(withDoc(signature, isSchemaObject(propertySchema) ? propertySchema.description : undefined));
    }
    for (const name of required) {
      if (!(name in properties)) {
        // A required key with no schema of its own: any JSON value, but present.
        members.push(property(name, jsonValue(qualifier), { quoted: !isIdentifierName(name) }));
      }
    }
    const extra = schema.additionalProperties;
    const hasProperties = members.length > 0;
    if (isSchemaObject(extra)) {
      const map = mapOf(this.typeOf(extra, { ...at, pointer: `${at.pointer}/additionalProperties` }, qualifier));
      return hasProperties ? intersectionOf([{ kind: "typeLiteral", members }, map]) : map;
    }
    if ((extra === true || open) && !hasProperties) {
      // An open map (serde_json's Map), or a catch-all: any JSON object.
      return mapOf(jsonValue(qualifier));
    }
    if (!hasProperties) {
      // `{type: object}` with nothing else is how the schemas write a struct without fields.
      return reference("Record", [keyword("string"), keyword("never")]);
    }
    // `additionalProperties: true` beside named properties adds no index signature: keeping the
    // named ones exact is what catches typos.
    return { kind: "typeLiteral", members };
  }

  private members(schema: JsonSchemaObject, key: "anyOf" | "oneOf" | "allOf", at: Position, qualifier?: string): TypeNode[] | undefined {
    const list = schema[key];
    if (list === undefined) return undefined;
    if (!Array.isArray(list) || list.length === 0) this.fail(`${key} must be a non-empty array of schemas`, `${at.pointer}/${key}`);
    return list.map((member, index) => {
      const pointer = `${at.pointer}/${key}/${index}`;
      if (typeof member !== "boolean" && !isSchemaObject(member)) this.fail(`${key} member is not a schema`, pointer);
      const type = this.typeOf(member, { ...at, pointer }, qualifier);
      return isSchemaObject(member) && member.description && key !== "allOf" ? withDoc(type, member.description) : type;
    });
  }

  /** Whether the server always writes this field: it is nullable or has a default. */
  private alwaysWritten(schema: JsonSchema): boolean {
    return isSchemaObject(schema) && ("default" in schema || this.acceptsNull(schema, new Set()));
  }

  private acceptsNull(schema: JsonSchema, visiting: Set<SchemaDefinition>): boolean {
    if (schema === true) return true;
    if (!isSchemaObject(schema)) return false;
    if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) return true;
    if (schema.enum?.includes(null)) return true;
    if ([...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((member) => this.acceptsNull(member, visiting))) return true;
    if (typeof schema.$ref === "string") {
      const def = this.bundle.resolve(schema.$ref, "");
      const cached = this.nullableCache.get(def);
      if (cached !== undefined) return cached;
      if (visiting.has(def)) return false;
      visiting.add(def);
      const nullable = this.acceptsNull(def.schema, visiting);
      this.nullableCache.set(def, nullable);
      return nullable;
    }
    const structural = Object.keys(schema).some((key) => STRUCTURAL_KEYWORDS.has(key));
    return !structural; // an annotation-only schema accepts anything, null included
  }

  private literalOf(value: unknown, pointer: string): TypeNode {
    if (value === null || typeof value === "string" || typeof value === "boolean") return literal(value);
    if (typeof value === "number" && Number.isFinite(value)) return literal(value);
    return this.fail(`cannot express ${JSON.stringify(value)} as a literal type`, pointer);
  }

  private checkKeywords(schema: JsonSchemaObject, pointer: string): void {
    for (const key of Object.keys(schema)) {
      if (ANNOTATION_KEYWORDS.has(key) || CONSTRAINT_KEYWORDS.has(key)) continue;
      if (STRUCTURAL_KEYWORDS.has(key) && (key !== "definitions" || pointer === "#")) continue;
      this.fail(`the emitter does not understand the keyword "${key}"`, `${pointer}/${pointerSegment(key)}`);
    }
  }

  private fail(message: string, pointer: string): never {
    throw new CodegenError("UNSUPPORTED_SCHEMA", message, { file: this.bundle.file, pointer });
  }
}

function typeReference(def: SchemaDefinition, qualifier?: string): TypeReference {
  const name = def.namespace ? `${def.namespace}.${def.name}` : def.name;
  return reference(qualifier ? `${qualifier}.${name}` : name);
}

function jsonValue(qualifier?: string): TypeReference {
  return reference(qualifier ? `${qualifier}.${JSON_VALUE}` : JSON_VALUE);
}

/** `{ [key in string]?: T }`: a map whose lookups may miss, as codex's own types write it. */
function mapOf(value: TypeNode): TypeNode {
  return { kind: "mapped", parameter: "key", constraint: keyword("string"), optional: true, type: value };
}

function jsonValueDeclaration(): Declaration {
  const self = () => reference(JSON_VALUE);
  const alias: Declaration = {
    kind: "typeAlias",
    name: JSON_VALUE,
    type: {
      kind: "union",
      members: [keyword("number"), keyword("string"), keyword("boolean"), reference("Array", [self()]), mapOf(self()), literal(null)],
    },
  };
  return withDoc(alias, "Any JSON value: what the schema says of fields it leaves open (description-only schemas).");
}

/** Names that can stand unquoted as property names; anything else is written as a string literal. */
function isIdentifierName(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
}

/** A flat union without repeated keywords, literals or references (nested `anyOf`s repeat `null`). */
function unionOf(types: TypeNode[]): TypeNode {
  const flat = types.flatMap((type) => (type.kind === "union" ? [...type.members] : [type]));
  const seen = new Set<string>();
  const unique = flat.filter((type) => {
    const key = simpleKey(type);
    if (key === undefined) return true;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.length === 1 ? (unique[0] as TypeNode) : { kind: "union", members: unique };
}

function intersectionOf(types: TypeNode[]): TypeNode {
  return types.length === 1 ? (types[0] as TypeNode) : { kind: "intersection", members: types };
}

function simpleKey(type: TypeNode): string | undefined {
  switch (type.kind) {
    case "literal": {
      const value = type.value;
      if (value === null || typeof value === "boolean") return String(value);
      if (typeof value === "string") return `s:${value}`;
      // Negative numbers were never merged (TypeScript wrote them as `-` expressions); kept so output stays the same.
      return value < 0 ? undefined : `n:${String(value)}`;
    }
    case "reference":
      return type.typeArguments ? undefined : `r:${type.name}`;
    case "keyword":
      return `k:${type.keyword}`;
    default:
      return undefined;
  }
}

/** Attaches a description, printed as a JSDoc block before the node. Blank descriptions are dropped. */
export function withDoc<T extends Node>(node: T, description: string | undefined): T {
  if (!description?.trim()) return node;
  return { ...node, docs: [...(node.docs ?? []), description] };
}
