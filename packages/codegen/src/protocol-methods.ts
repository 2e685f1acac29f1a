import { CodegenError } from "./codegen-error.js";
import { isSchemaObject, type JsonSchema, type JsonSchemaObject } from "./json-schema.js";
import { RESULT_TABLE } from "./result-table.js";
import type { SchemaBundle, SchemaDefinition } from "./schema-bundle.js";

export type MethodKind = "clientRequest" | "serverRequest" | "serverNotification" | "clientNotification";

/** The root union that lists each kind's methods, and the map the emitter names after it. */
export const METHOD_UNIONS: Readonly<Record<MethodKind, string>> = {
  clientRequest: "ClientRequest",
  serverRequest: "ServerRequest",
  serverNotification: "ServerNotification",
  clientNotification: "ClientNotification",
};

export interface ProtocolMethod {
  readonly kind: MethodKind;
  readonly method: string;
  /** The union member, e.g. `#/definitions/ClientRequest/oneOf/3`. */
  readonly variantPointer: string;
  readonly description: string | undefined;
  /** The `params` subschema and where it is; `undefined` when the message has no params at all. */
  readonly params: { readonly schema: JsonSchema; readonly pointer: string; readonly required: boolean } | undefined;
  /** The definition the params name (`$ref`, or `anyOf [$ref, null]`), when there is one. */
  readonly paramsDefinition: SchemaDefinition | undefined;
  /** Requests only: the result definition and how it was found. */
  readonly result: { readonly definition: SchemaDefinition; readonly resolvedBy: "convention" | "table" } | undefined;
}

export interface ProtocolMethods {
  readonly byKind: Readonly<Record<MethodKind, readonly ProtocolMethod[]>>;
  readonly all: readonly ProtocolMethod[];
}

/**
 * Lists every method of the four root unions and resolves each request's result. Fails naming
 * every method whose result could be found neither by convention nor in RESULT_TABLE.
 */
export function readProtocolMethods(bundle: SchemaBundle): ProtocolMethods {
  const byName = new Map<string, SchemaDefinition>();
  for (const def of bundle.definitions) if (!def.namespace) byName.set(def.name, def);

  const unresolved: string[] = [];
  const byKind = {} as Record<MethodKind, ProtocolMethod[]>;
  for (const kind of Object.keys(METHOD_UNIONS) as MethodKind[]) {
    const union = bundle.rootDefinition(METHOD_UNIONS[kind]);
    const members = unionMembers(union, bundle.file);
    const seen = new Set<string>();
    byKind[kind] = members.map(({ schema, pointer }) => {
      const method = readMethodName(schema, pointer, bundle.file);
      if (seen.has(method)) {
        throw new CodegenError("UNSUPPORTED_SCHEMA", `method "${method}" appears twice in ${union.name}`, {
          file: bundle.file,
          pointer,
        });
      }
      seen.add(method);
      const paramsSchema = schema.properties?.["params"];
      const params =
        paramsSchema === undefined
          ? undefined
          : {
              schema: paramsSchema,
              pointer: `${pointer}/properties/params`,
              required: schema.required?.includes("params") ?? false,
            };
      const paramsDefinition = params ? namedDefinition(params.schema, params.pointer, bundle) : undefined;
      let result: ProtocolMethod["result"];
      if (kind === "clientRequest" || kind === "serverRequest") {
        result = resolveResult(method, paramsDefinition, byName);
        if (!result) {
          unresolved.push(`${METHOD_UNIONS[kind]} "${method}" (params: ${paramsDefinition?.name ?? "none"})`);
        }
      }
      const description = typeof schema.description === "string" ? schema.description : undefined;
      return { kind, method, variantPointer: pointer, description, params, paramsDefinition, result };
    });
  }
  if (unresolved.length > 0) {
    throw new CodegenError(
      "UNRESOLVED_METHODS",
      `cannot tell the result type of ${unresolved.length} method(s): ${unresolved.join(", ")}. ` +
        "Neither `XParams → XResponse` applies nor does RESULT_TABLE (packages/codegen/src/result-table.ts) name one.",
      { file: bundle.file },
    );
  }
  return { byKind, all: Object.values(byKind).flat() };
}

function unionMembers(union: SchemaDefinition, file: string): { schema: JsonSchemaObject; pointer: string }[] {
  const schema = union.schema;
  const keyword = isSchemaObject(schema) ? (schema.oneOf ? "oneOf" : schema.anyOf ? "anyOf" : undefined) : undefined;
  const members = keyword && isSchemaObject(schema) ? schema[keyword] : undefined;
  if (!keyword || !Array.isArray(members)) {
    throw new CodegenError("UNSUPPORTED_SCHEMA", `${union.name} must be a oneOf/anyOf of messages`, {
      file,
      pointer: union.pointer,
    });
  }
  return members.map((member, index) => {
    const pointer = `${union.pointer}/${keyword}/${index}`;
    if (!isSchemaObject(member)) {
      throw new CodegenError("UNSUPPORTED_SCHEMA", `${union.name} member is not a message object`, { file, pointer });
    }
    return { schema: member, pointer };
  });
}

function readMethodName(schema: JsonSchemaObject, pointer: string, file: string): string {
  const methodSchema = schema.properties?.["method"];
  const values = isSchemaObject(methodSchema) ? (methodSchema.enum ?? (methodSchema.const !== undefined ? [methodSchema.const] : undefined)) : undefined;
  if (!values || values.length !== 1 || typeof values[0] !== "string") {
    throw new CodegenError("UNSUPPORTED_SCHEMA", "a message must fix `method` to one string (enum of one value)", {
      file,
      pointer: `${pointer}/properties/method`,
    });
  }
  return values[0];
}

/** The definition a params schema names: `{$ref}` or `{anyOf: [{$ref}, {type: null}]}`. */
function namedDefinition(schema: JsonSchema, pointer: string, bundle: SchemaBundle): SchemaDefinition | undefined {
  if (!isSchemaObject(schema)) return undefined;
  if (typeof schema.$ref === "string") return bundle.resolve(schema.$ref, `${pointer}/$ref`);
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return undefined;
  const refs = branches.flatMap((branch, index) =>
    isSchemaObject(branch) && typeof branch.$ref === "string" ? [{ ref: branch.$ref, index }] : [],
  );
  const onlyNullBesides = branches.every(
    (branch) => isSchemaObject(branch) && (typeof branch.$ref === "string" || branch.type === "null"),
  );
  if (refs.length !== 1 || !onlyNullBesides) return undefined;
  const [{ ref, index }] = refs as [{ ref: string; index: number }];
  const keyword = schema.anyOf ? "anyOf" : "oneOf";
  return bundle.resolve(ref, `${pointer}/${keyword}/${index}/$ref`);
}

function resolveResult(
  method: string,
  paramsDefinition: SchemaDefinition | undefined,
  byName: ReadonlyMap<string, SchemaDefinition>,
): ProtocolMethod["result"] {
  const paramsName = paramsDefinition?.name;
  if (paramsName?.endsWith("Params")) {
    const conventional = byName.get(`${paramsName.slice(0, -"Params".length)}Response`);
    if (conventional) return { definition: conventional, resolvedBy: "convention" };
  }
  const tabled = RESULT_TABLE[method];
  const definition = tabled === undefined ? undefined : byName.get(tabled);
  return definition ? { definition, resolvedBy: "table" } : undefined;
}
